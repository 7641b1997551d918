/**
 * The access matrix of docs/api.md, cell by cell, over the three roles: for every call whose rule one body
 * shows for every caller, no token gives 401, and an administrator, a dispatcher of the channel the call names,
 * a dispatcher of another channel, a member of the channel and a member outside it each get the status that
 * the call's declared `access` and protocol's role table (`may`, `mayAnywhere`) give. A few cells are also
 * written out by hand (`explicit`), so that a wrong table fails as well as a server that does not follow it.
 */

import type { Access, Capability } from '@talkgroup/protocol';
import * as protocol from '@talkgroup/protocol';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  bodies,
  CALLER_ORDER,
  CALLERS,
  type CallerName,
  checkedElsewhere,
  explicit,
  type Fixture,
  PUSH_ORIGIN,
  type Variant,
  type Where,
  ZONE,
} from './authorization-cells.ts';
import { pngImage, upload } from './chat-fixtures.ts';
import { type Account, databases, expectNoSecrets } from './harness.ts';
import { world } from './world.ts';

const calls = Object.values(protocol).flatMap((value) => (protocol.isCall(value) ? [value] : []));

interface Cell extends Variant {
  call: string;
  access: Access;
  method?: 'GET' | 'MULTIPART';
}

const cells: Cell[] = calls.flatMap((call) =>
  [bodies[call.path] ?? []].flat().map((variant) => ({
    ...variant,
    call: call.path,
    access: call.access,
    method: call.method === 'GET' ? ('GET' as const) : call.encoding ? ('MULTIPART' as const) : undefined,
  })),
);

/** The server's words when the role holds the capability nowhere: "only an administrator" if only they do. */
function roleRefusal(capability: Capability): string {
  const holders = protocol.ROLES.filter((role) => protocol.mayAnywhere({ role }, capability));
  return holders.length === 1 && holders[0] === 'admin' ? 'admin_only' : 'not_allowed';
}

/** What a caller gets for a cell, by the call's access and protocol's table. */
function expected(cell: Cell, caller: CallerName): { status: number; code?: string } {
  if (cell.access === 'signedIn') return { status: 200 };
  if (cell.access === 'gone') return { status: 410 };
  if (!protocol.isCapability(cell.access)) throw new Error(`${cell.call}: no cell can check ${cell.access}`);
  const actor = { role: CALLERS[caller].role, mapRight: false };
  if (!protocol.mayAnywhere(actor, cell.access)) return { status: 403, code: roleRefusal(cell.access) };
  if (!cell.about || protocol.may(actor, null, cell.access)) return { status: 200 };
  const member = (CALLERS[caller].in as readonly Where[]).includes(cell.about);
  if (protocol.may(actor, { member }, cell.access)) return { status: 200 };
  return { status: 403, code: cell.refusal ?? (member ? 'not_allowed' : 'not_channel_member') };
}

describe('the access matrix', () => {
  it('has a cell, or the name of the test that checks it, for every call of the protocol', () => {
    const unchecked = calls.map((call) => call.path).filter((path) => !bodies[path] && !checkedElsewhere[path]);
    expect(unchecked).toEqual([]);
    const unknown = [...Object.keys(bodies), ...Object.keys(checkedElsewhere)].filter(
      (path) => !calls.some((call) => call.path === path),
    );
    expect(unknown).toEqual([]);
  });

  it('checks in its cells only capabilities and the levels that one body can show for every caller', () => {
    const levels = new Set(cells.map((cell) => cell.access));
    expect(
      [...levels].filter((level) => !protocol.isCapability(level) && !['signedIn', 'gone'].includes(level)),
    ).toEqual([]);
  });

  it('gives by the role table the statuses written out by hand', () => {
    const cellOf = (path: string) => cells.find((cell) => cell.call === path) as Cell;
    const got = explicit.map(([caller, path]) => [caller, path, expected(cellOf(path), caller).status]);
    expect(got).toEqual(explicit);
  });
});

describe.each(databases)('who may do what on %s', (dialect) => {
  // PUBLIC_URL: passkeys are on (issue 47), so that startPasskeyRegistration's cell answers for every caller.
  const w = world(dialect, {
    config: { pushEndpointAllow: [PUSH_ORIGIN], publicUrl: 'https://matrix.invalid' },
    people: {
      insider: { role: 'member' },
      outsider: { role: 'member' },
      dispatcher: { role: 'dispatcher' },
      otherDispatcher: { role: 'dispatcher' },
    },
    channels: {
      alpha: { name: 'Alpha', members: ['insider', 'dispatcher'], overHttp: true },
      beta: { name: 'Beta', members: ['otherDispatcher'], overHttp: true },
    },
  });
  let f: Fixture;

  beforeEach(async () => {
    const { app, admin, insider, outsider, dispatcher, otherDispatcher } = w;
    const [channelId, otherChannelId] = [w.alpha.id, w.beta.id];
    const at = new Date().toISOString();
    const [burst] = await app.services.db
      .insertInto('talk_bursts')
      .values({ user_id: insider.id, channel_id: channelId, channel_name: 'Alpha', started_at: at, ended_at: at })
      .returning('id')
      .execute();
    await app.services.db
      .insertInto('devices')
      .values({
        display_name: 'Radio',
        mac_address: '00:1A:2B:3C:4D:5E',
        type: '',
        manufacturer: '',
        product_ref: '',
        created_at: at,
      })
      .execute();
    // A finished import job (a real one needs more than IMPORT_JOB_ABOVE rows: import-jobs.test.ts makes those).
    const job = await app.services.db
      .insertInto('import_jobs')
      .values({
        kind: 'users',
        actor_id: admin.id,
        state: 'done',
        total: 0,
        done: 0,
        options: JSON.stringify({ channelIds: {} }),
        channels: JSON.stringify({ unknownChannels: [], createdChannels: [] }),
        error: null,
        runner: null,
        heartbeat_at: null,
        created_at: at,
        finished_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const sent = await app.call('/user/api/sendMessageToChannel', { channelId, message: 'first' }, insider.token);
    const alert = await app.services.emergency.raise({ userId: insider.id, role: 'member' }, { channelId });
    const fence = { name: 'Yard', channelId, shape: ZONE, alertOn: 'both', activeUntil: null } as const;
    const fenceId = await app.services.geofences.create(fence, { id: admin.id, name: 'Ada Admin' });
    const gateway = await app.services.gateways.create(
      {
        name: 'Radio Quai',
        login: 'radio-quai',
        channelIds: [channelId],
        allowedAddresses: [],
        floorMode: 'voice',
        attackMs: 400,
        hangMs: 1500,
        priority: 'member',
        quietBetween: true,
      },
      { realm: 'talkgroup', ha1Md5: 'a'.repeat(32), ha1Sha256: 'b'.repeat(64) },
    );
    const gatewayCallId = 'matrix-call@127.0.0.1';
    await app.services.gateways.openCall({
      callId: gatewayCallId,
      gatewayId: gateway.id,
      userId: (await app.services.gateways.byId(gateway.id))?.userId ?? 0,
      channelId,
      instanceId: 'matrix',
      address: '127.0.0.1:5062',
      transport: 'udp',
      codec: 'PCMU',
    });
    f = {
      admin,
      insider,
      outsider,
      dispatcher,
      otherDispatcher,
      channelId,
      otherChannelId,
      insiderMessageId: sent.body.res.id,
      burstId: burst.id,
      alertId: alert.id,
      fenceId,
      importJobId: job.id,
      gatewayId: gateway.id,
      gatewayCallId,
    };
  });

  async function perform(cell: Cell, token: string | undefined): Promise<{ status: number; body: any }> {
    if (cell.method === 'MULTIPART') {
      return upload(w.app, token, cell.body(f) as Record<string, number>, {
        fileName: 'a.png',
        contentType: 'image/png',
        bytes: pngImage(),
      });
    }
    if (cell.method === 'GET') {
      const response = await w.app.fastify.inject({
        method: 'GET',
        url: cell.call,
        headers: token ? { 'x-access-token': token } : {},
      });
      return { status: response.statusCode, body: response.json() };
    }
    return w.app.call(cell.call, cell.body(f), token);
  }

  it.each(cells.map((cell) => [`${cell.call}${cell.label ? ` ${cell.label}` : ''}`, cell.access, cell] as const))(
    '%s (%s)',
    async (_call, _access, cell) => {
      const anonymous = await perform(cell, undefined);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ success: false, result: expect.any(String), code: 'token_missing' });
      const forged = await perform(cell, 'not-a-token');
      expect(forged.status).toBe(401);

      const got: Record<string, { status: number; code?: string }> = {};
      const wanted: Record<string, { status: number; code?: string }> = {};
      for (const caller of CALLER_ORDER) {
        const answer = await perform(cell, f[caller].token);
        wanted[caller] = expected(cell, caller);
        got[caller] = wanted[caller].code
          ? { status: answer.status, code: answer.body?.code }
          : { status: answer.status };
        if (answer.status === 200) expectNoSecrets(answer.body);
        if (answer.body?.code === 'admin_only') expect(answer.body.result).toBe('Only an administrator may do this.');
        if (answer.body?.code === 'not_allowed') expect(answer.body.result).toBe('Your role does not allow this.');
        if (answer.body?.code === 'not_channel_member')
          expect(answer.body.result).toBe('You are not a member of this channel.');
      }
      expect(got).toEqual(wanted);
    },
  );

  it('deleteMessageById: a member deletes only its own messages, a dispatcher none of others, an administrator any', async () => {
    const del = (msgId: number, token?: string) => w.app.call('/user/api/deleteMessageById', { msgId }, token);
    const send = async (account: Account) =>
      (await w.app.call('/user/api/sendMessageToChannel', { channelId: f.channelId, message: 'x' }, account.token)).body
        .res.id as number;
    const adminMessageId = await send(f.admin);
    expect((await del(f.insiderMessageId)).status).toBe(401);
    expect((await del(f.insiderMessageId, f.outsider.token)).status).toBe(403);
    expect((await del(f.insiderMessageId, f.dispatcher.token)).status).toBe(403);
    expect((await del(adminMessageId, f.insider.token)).status).toBe(403);
    expect((await del(f.insiderMessageId, f.insider.token)).status).toBe(200);
    expect((await del(await send(f.dispatcher), f.dispatcher.token)).status).toBe(200);
    expect((await del(adminMessageId, f.admin.token)).status).toBe(200);
    expect((await del(await send(f.insider), f.admin.token)).status).toBe(200);
  });

  it('a member or dispatcher of one channel cannot read or write another channel, even by a missing id', async () => {
    for (const account of [f.insider, f.dispatcher]) {
      for (const channelId of [f.otherChannelId, 99999]) {
        for (const call of [
          '/user/api/getUsersInChannel',
          '/user/api/getchannelmessagelistForAdmin',
          '/user/api/getChannelVoiceMessages',
        ]) {
          const refused = await w.app.call(call, { channelId }, account.token);
          expect(refused.status).toBe(403);
          expect(refused.body.code).toBe('not_channel_member');
        }
        const sent = await w.app.call('/user/api/sendMessageToChannel', { channelId, message: 'x' }, account.token);
        expect(sent.status).toBe(403);
      }
    }
    // One who holds the capability everywhere learns that the channel does not exist.
    expect((await w.app.call('/user/api/getUsersInChannel', { channelId: 99999 }, f.admin.token)).status).toBe(404);
  });

  it('getMyChannels gives each member and dispatcher its own channels only', async () => {
    const ids = async (account: Account) =>
      (await w.app.call('/user/api/getMyChannels', {}, account.token)).body.res.map((c: { id: number }) => c.id);
    expect(await ids(f.insider)).toEqual([f.channelId]);
    expect(await ids(f.dispatcher)).toEqual([f.channelId]);
    expect(await ids(f.otherDispatcher)).toEqual([f.otherChannelId]);
    expect(await ids(f.outsider)).toEqual([]);
  });
});
