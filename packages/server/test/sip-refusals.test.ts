/**
 * The SIP gateway on the internet (issue 51): Debian's baresip, as a gateway, dials the server's SIP port and
 * gets the right SIP answer for each wrong call, and each refused call is audited naming the login or the
 * gateway and the number dialled (never the secret): a wrong secret (403 after the 401 challenge), an unknown
 * login, a number that names no channel (404), a channel the gateway may not enter (403), an address outside
 * the gateway's list (403), over UDP and TCP. No media server is needed: every refusal comes before the media.
 */

import { channelNumber } from '@talkgroup/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Baresip, baresipAvailable, CallRefused, startBaresip } from './baresip.ts';
import { type Account, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { testSipConfig } from './janus-harness.ts';

const available = baresipAvailable();

async function refusal(phone: Baresip, number: string): Promise<number | undefined> {
  const outcome = await phone.dial(number).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(CallRefused);
  const refused = outcome as CallRefused;
  if (refused.status === undefined)
    throw new Error(`refused without a status: ${refused.reason}\n${phone.output().slice(-3000)}`);
  return refused.status;
}

describe.skipIf(!available).each(databases)('SIP refusals on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  let sipPort: number;
  let alpha: { id: number; number: string };
  let bravo: { id: number; number: string };
  let secret: string;
  const phones: Baresip[] = [];
  beforeEach(async () => {
    app = await startApp(dialect, {
      sip: testSipConfig(),
    });
    if (!app.sip) throw new Error('SIP did not start');
    sipPort = app.sip.port;
    admin = await signUpAdmin(app);
    const made = async (name: string) => {
      const res = (await app.call('/user/api/createChannel', { channelName: name }, admin.token)).body.res;
      return { id: res.id as number, number: channelNumber({ id: res.id, voiceMode: 'server' }) as string };
    };
    alpha = await made('alpha');
    bravo = await made('bravo');
    const created = await app.call(
      '/user/api/createGateway',
      { name: 'Radio Quai', login: 'radio-quai', channelIds: [alpha.id] },
      admin.token,
    );
    expect(created.status).toBe(200);
    secret = created.body.secret;
  });

  afterEach(async () => {
    await Promise.all(phones.splice(0).map((phone) => phone.stop()));
    await app?.close();
  });

  async function phone(options: Partial<Parameters<typeof startBaresip>[0]> = {}): Promise<Baresip> {
    const started = await startBaresip({ login: 'radio-quai', secret, sipPort, ...options });
    phones.push(started);
    return started;
  }

  async function refusals(): Promise<Array<Record<string, unknown>>> {
    const log = await app.call('/user/api/getAuditLog', { targetType: 'gateway', limit: 50 }, admin.token);
    return log.body.res.entries.filter((entry: { action: string }) => entry.action === 'gateway.refused');
  }

  for (const transport of ['udp', 'tcp'] as const)
    it(`answers a wrong secret, an unknown number and a channel not allowed, and audits each (${transport.toUpperCase()})`, async () => {
      const wrong = await phone({ secret: 'not-the-secret', transport });
      expect(await refusal(wrong, alpha.number)).toBe(403);

      const stranger = await phone({ login: 'nobody-here', transport });
      expect(await refusal(stranger, alpha.number)).toBe(403);

      const right = await phone({ transport });
      expect(await refusal(right, '9999')).toBe(404);
      expect(await refusal(right, bravo.number)).toBe(403);

      await expect.poll(async () => (await refusals()).length, { timeout: 10_000 }).toBe(4);
      const entries = await refusals();
      const reasons = entries.map((entry: any) => [
        entry.targetName,
        entry.changes.number.after,
        entry.changes.reason.after,
      ]);
      expect(reasons).toEqual(
        expect.arrayContaining([
          ['Radio Quai', alpha.number, 'credentials'],
          ['nobody-here', alpha.number, 'credentials'],
          ['Radio Quai', '9999', 'number'],
          ['Radio Quai', bravo.number, 'channel'],
        ]),
      );
      for (const entry of entries) {
        expect(entry.actor).toEqual({ id: null, name: 'SIP' });
        expect(JSON.stringify(entry)).not.toContain(secret);
        expect(entry.address).toMatch(/^127\.0\.0\.1:\d+$/);
      }
    });

  it('refuses a call from an address outside the gateway list', async () => {
    const list = await app.call('/user/api/listGateways', {}, admin.token);
    const id = list.body.res[0].id;
    const changed = await app.call('/user/api/updateGateway', { id, allowedAddresses: ['192.0.2.0/24'] }, admin.token);
    expect(changed.status).toBe(200);
    expect(await refusal(await phone(), alpha.number)).toBe(403);
    await expect
      .poll(async () => (await refusals()).map((entry: any) => entry.changes.reason.after))
      .toEqual(['address']);
  });
});
