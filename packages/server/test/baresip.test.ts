/**
 * The baresip harness itself, without Talkgroup: two baresip phones call each other on loopback (one answers by
 * itself), one plays a 1 kHz tone and the other's recording must hold it; a DTMF digit sent by one arrives at
 * the other as a ctrl_tcp event; a call to a user the other phone does not have is refused with its SIP status.
 * The SIP gateway's tests stand on this harness, so it must be shown to hear, to send and to fail on its own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Baresip, baresipAvailable, CallRefused, startBaresip, toneLevel, writeToneWav } from './baresip.ts';

const available = baresipAvailable();
if (!available) {
  console.warn('baresip.test.ts skipped: no `baresip` here (Debian: apt-get install baresip)');
}

describe.skipIf(!available)('baresip harness (two phones on loopback)', () => {
  let dir: string;
  let tone: string;
  const phones: Baresip[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tg-baresip-test-'));
    tone = join(dir, 'tone.wav');
    await writeToneWav(tone, { hz: 1000, seconds: 20, rate: 8000, amplitude: 0.5 });
  });

  afterAll(async () => {
    await Promise.all(phones.map((phone) => phone.stop()));
    await rm(dir, { recursive: true, force: true });
  });

  async function phone(options: Parameters<typeof startBaresip>[0]) {
    const started = await startBaresip(options);
    phones.push(started);
    return started;
  }

  for (const transport of ['udp', 'tcp'] as const) {
    it(`hears the other phone's tone and its DTMF over ${transport.toUpperCase()} (PCMU)`, async () => {
      const callee = await phone({ login: 'desk', transport, record: true, autoAnswer: true, codecs: ['pcmu'] });
      const caller = await phone({ login: 'radio-quai', sipPort: callee.sipPort, transport, play: tone });

      const call = await caller.dial('desk');
      expect(call.peerUri).toContain(`desk@127.0.0.1:${callee.sipPort}`);
      const answered = await callee.established();
      expect(answered.id).toBe(call.id);

      await callee.hears(1000, { seconds: 1 });
      // Both events are looked for from before the digit: on a loaded machine its end arrived with its start,
      // before the wait for the end began (and a wait from then on saw nothing).
      const since = callee.events.length;
      await caller.sendDtmf('*');
      const digit = await callee.waitFor('CALL_DTMF_START', undefined, since);
      expect(digit.param).toBe('*');
      await callee.waitFor('CALL_DTMF_END', undefined, since);

      await caller.hangup();
      expect(await callee.closed()).toBe('Connection reset by peer');
      const heard = await toneLevel(await callee.recording(), 1000);
      // 0.5 of full scale is -6 dBFS; G.711 keeps it within a dB or two.
      expect(heard).toBeGreaterThan(-10);
      expect(await toneLevel(await callee.recording(), 1500)).toBeLessThan(heard - 30);
    });
  }

  it('records the tone through Opus at 48 kHz too', async () => {
    const tone48 = join(dir, 'tone48.wav');
    await writeToneWav(tone48, { hz: 1000, seconds: 20, rate: 48000, amplitude: 0.5 });
    const callee = await phone({ login: 'desk', record: true, autoAnswer: true, codecs: ['opus'] });
    const caller = await phone({ login: 'radio-quai', sipPort: callee.sipPort, play: tone48, codecs: ['opus'] });
    await caller.dial('desk');
    await callee.established();
    await callee.hears(1000, { seconds: 1 });
    const since = callee.events.length;
    await caller.sendDtmf('#');
    expect((await callee.waitFor('CALL_DTMF_START', undefined, since)).param).toBe('#');
    await callee.hangup();
    await caller.closed();
    expect(await toneLevel(await callee.recording(), 1000)).toBeGreaterThan(-10);
  });

  it('rejects a dial with the SIP status of the refusal (404 for a user the other phone does not have)', async () => {
    const callee = await phone({ login: 'desk', autoAnswer: true });
    const caller = await phone({ login: 'radio-quai', sipPort: callee.sipPort });
    const refused = await caller.dial('nobody').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CallRefused);
    expect((refused as CallRefused).status).toBe(404);
  });

  it('answers by accept, hears silence when the other plays nothing, and says so when a tone is awaited', async () => {
    const callee = await phone({ login: 'desk', record: true, codecs: ['pcma'], timeoutMs: 3000 });
    const caller = await phone({ login: 'radio-quai', sipPort: callee.sipPort });
    const since = callee.events.length;
    const dialled = caller.dial('desk');
    await callee.waitFor('CALL_INCOMING', undefined, since);
    await callee.accept();
    await Promise.all([dialled, callee.established()]);
    await callee.recorded(1);
    await expect(callee.hears(1000)).rejects.toThrow(/1000 Hz was not heard/);
    await caller.hangup();
    await callee.closed();
    expect(await toneLevel(await callee.recording(), 1000)).toBeLessThan(-60);
  });

  it('refuses SIP INFO DTMF, which baresip 1.0.0 cannot send', async () => {
    await expect(startBaresip({ login: 'radio-quai', sipPort: 5060, dtmf: 'info' })).rejects.toThrow(/RFC 4733 only/);
  });
});
