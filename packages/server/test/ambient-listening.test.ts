/**
 * Ambient listening (issue 60 item 6): refused in the contract's order (issue 69: a member or a dispatcher of another
 * channel 403 first, then 'off' 403 with its sentence, then the member's app not open 409, where only her /talk pages
 * count); a start reaches the member's sockets only; the signalling passes only between the member's page and the
 * listener's, for a live listening; a stop, the time running out, or a party's page going ends it for both; a second
 * start renews it; every start and stop audited. Issue 69's ranks, setting changes and failing audit:
 * ambient-listening-rights.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { type Account, databases } from './harness.ts';
import { eventually } from './realtime-harness.ts';
import { world } from './world.ts';

const OFFER = { sdp: 'v=0 offer' };
const DEVICE = {
  battery: null,
  network: { online: true, effectiveType: '4g' },
  visible: true,
  wakeLock: false,
  position: null,
  appVersion: '2.0.2',
  push: false,
};
const CANDIDATE = { candidate: 'candidate:1 1 udp 2122260223 192.0.2.1 54400 typ host', sdpMid: '0', sdpMLineIndex: 0 };

describe.each(databases)('ambient listening on %s', { timeout: 60_000 }, (dialect) => {
  const w = world(dialect, {
    setUpInTest: true,
    people: {
      mia: { role: 'member', firstName: 'Mia', lastName: 'Field' },
      olaf: { role: 'member', firstName: 'Olaf', lastName: 'Field' },
      dispatcher: { role: 'dispatcher' },
      otherDispatcher: { role: 'dispatcher' },
    },
    channels: {
      field: { name: 'Field Team', members: ['mia', 'olaf', 'dispatcher'] },
      depot: { name: 'Depot', members: ['otherDispatcher'] },
    },
  });

  /** The member's app, /talk: what "the member's app is open" counts. */
  const openTalk = (account: Account) => w.open(account, { talkPage: true });
  const start = (userId: number, who: Account) => w.app.call('/user/api/startAmbientListening', { userId }, who.token);
  const stop = (listeningId: string, who: Account) =>
    w.app.call('/user/api/stopAmbientListening', { listeningId }, who.token);
  const allow = async (mode: 'off' | 'announced' | 'discreet') =>
    expect((await w.app.call('/user/api/setSafetySettings', { ambientListening: mode }, w.admin.token)).status).toBe(
      200,
    );
  const auditRows = async () =>
    (await w.app.services.audit.page({ start: 0, limit: 100 })).entries.filter((e) => e.action.startsWith('ambient.'));
  const arrange = (maxSeconds = 300) => w.setUp({ ambientMaxSeconds: maxSeconds });

  it("refuses in the contract's order: the caller's rights, then off, then the app not open", async () => {
    await arrange();
    const { app, admin, mia, olaf, dispatcher, otherDispatcher } = w;
    // Issue 69: a member, or a dispatcher of another channel, is refused before anything about the member is said.
    for (const caller of [olaf, otherDispatcher]) {
      const refused = await start(mia.id, caller);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('not_allowed');
    }
    const off = await start(mia.id, admin);
    expect(off.status).toBe(403);
    expect(off.body).toMatchObject({ success: false, code: 'ambient_off' });
    expect(off.body.result).toMatch(/Ambient listening is off/);

    await allow('announced');
    const closed = await start(mia.id, dispatcher);
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe('ambient_app_closed');
    expect((await start(mia.id, olaf)).status).toBe(403);

    // Her console open is not her app open: only /talk has the microphone to hear.
    const miaConsole = await w.open(mia);
    expect((await start(mia.id, dispatcher)).status).toBe(409);
    // An older /talk, which does not say so in its handshake, counts once it reports its device.
    expect(await miaConsole.emitAck('device_status', DEVICE)).toEqual({ success: true });
    const appOpen = async () =>
      (await app.call('/user/api/requestDeviceStatus', { userId: mia.id }, admin.token)).body.res.appOpen as boolean;
    expect(await appOpen()).toBe(true);
    miaConsole.close();
    await eventually(async () => !(await appOpen()), "mia's page gone");
    expect((await start(mia.id, dispatcher)).status).toBe(409);

    await openTalk(mia);
    const member = await start(mia.id, olaf);
    expect(member.status).toBe(403);
    const stranger = await start(mia.id, otherDispatcher);
    expect(stranger.status).toBe(403);
    const bad = await app.call('/user/api/startAmbientListening', { userId: 'mia' }, admin.token);
    expect(bad.status).toBe(400);
    expect(bad.body.result).toMatch(/userId/);
    expect((await app.call('/user/api/stopAmbientListening', { listeningId: '' }, admin.token)).status).toBe(400);
    expect(await auditRows()).toEqual([]);
  });

  it("tells the member's sockets only, relays the signalling between the two parties only, and stops for both", async () => {
    await arrange();
    const { admin, mia, olaf, dispatcher, otherDispatcher } = w;
    await allow('announced');
    const phone = await openTalk(mia);
    const olafPhone = await openTalk(olaf);
    const desk = await w.open(dispatcher);
    const adminDesk = await w.open(admin);

    const started = await start(mia.id, dispatcher);
    expect(started.status).toBe(200);
    const { listeningId } = started.body.res;
    expect(started.body.res).toMatchObject({ userId: mia.id, announced: true, renewed: false });
    const told = await phone.next('ambient_start');
    expect(told).toEqual({
      listeningId,
      listener: { userId: dispatcher.id, name: expect.any(String) },
      announced: true,
    });
    for (const other of [olafPhone, desk, adminDesk]) await other.flush();
    for (const other of [olafPhone, desk, adminDesk]) expect(other.all('ambient_start')).toEqual([]);

    // A stranger, the listener before the member offered, an unknown listening: refused, relayed to nobody.
    expect((await olafPhone.emitAck('ambient_offer', { listeningId, ...OFFER })).success).toBe(false);
    expect((await desk.emitAck('ambient_answer', { listeningId, sdp: 'v=0 answer' })).success).toBe(false);
    const unknown = await phone.emitAck('ambient_offer', { listeningId: 'nope', ...OFFER });
    expect(unknown).toMatchObject({ success: false, result: expect.stringMatching(/no such ambient listening/) });
    expect((await phone.emitAck('ambient_offer', { listeningId })).success).toBe(false);

    expect(await phone.emitAck('ambient_offer', { listeningId, ...OFFER })).toEqual({ success: true });
    expect(await desk.next('ambient_offer')).toEqual({ listeningId, ...OFFER });
    expect(await desk.emitAck('ambient_answer', { listeningId, sdp: 'v=0 answer' })).toEqual({ success: true });
    expect(await phone.next('ambient_answer')).toEqual({ listeningId, sdp: 'v=0 answer' });
    expect(await phone.emitAck('ambient_candidate', { listeningId, candidate: CANDIDATE })).toEqual({ success: true });
    expect(await desk.next('ambient_candidate')).toEqual({ listeningId, candidate: CANDIDATE });
    expect(await desk.emitAck('ambient_candidate', { listeningId, candidate: null })).toEqual({ success: true });
    expect(await phone.next('ambient_candidate')).toEqual({ listeningId, candidate: null });
    // Neither the member's other page nor anyone else may use it now.
    const secondPhone = await openTalk(mia);
    expect((await secondPhone.emitAck('ambient_candidate', { listeningId, candidate: CANDIDATE })).success).toBe(false);
    expect((await olafPhone.emitAck('ambient_candidate', { listeningId, candidate: CANDIDATE })).success).toBe(false);
    expect((await adminDesk.emitAck('ambient_candidate', { listeningId, candidate: null })).success).toBe(false);
    for (const other of [olafPhone, adminDesk, secondPhone]) await other.flush();
    for (const other of [olafPhone, adminDesk, secondPhone])
      for (const event of ['ambient_offer', 'ambient_answer', 'ambient_candidate'])
        expect(other.all(event)).toEqual([]);

    // Only its listener (or an administrator) stops it; someone else's is as unknown as one that is over.
    expect((await stop(listeningId, otherDispatcher)).status).toBe(404);
    const stopped = await stop(listeningId, dispatcher);
    expect(stopped.status).toBe(200);
    expect(stopped.body.res).toMatchObject({ listeningId, userId: mia.id });
    expect(await phone.next('ambient_end')).toEqual({ listeningId, reason: 'stopped' });
    expect(await desk.next('ambient_end')).toEqual({ listeningId, reason: 'stopped' });
    expect((await stop(listeningId, dispatcher)).status).toBe(404);
    expect((await phone.emitAck('ambient_candidate', { listeningId, candidate: null })).success).toBe(false);

    const rows = await auditRows();
    expect(rows.map((r) => r.action)).toEqual(['ambient.stop', 'ambient.start']);
    for (const row of rows)
      expect(row).toMatchObject({ actor: { id: dispatcher.id }, targetType: 'user', targetId: mia.id });
    expect(rows[0].changes).toMatchObject({ reason: { after: 'stopped' }, seconds: { after: expect.any(Number) } });
  });

  it('renews a listening started again by the same page, and ends it for both when its time runs out', async () => {
    await arrange(1);
    const { admin, mia } = w;
    await allow('discreet');
    const phone = await openTalk(mia);
    const desk = await w.open(admin);
    const first = await start(mia.id, admin);
    expect(first.body.res).toMatchObject({ announced: false, renewed: false });
    expect(await phone.next('ambient_start')).toMatchObject({
      listeningId: first.body.res.listeningId,
      announced: false,
    });
    const again = await start(mia.id, admin);
    expect(again.body.res).toMatchObject({ listeningId: first.body.res.listeningId, renewed: true });

    expect(await phone.next('ambient_end')).toEqual({ listeningId: first.body.res.listeningId, reason: 'expired' });
    expect(await desk.next('ambient_end')).toEqual({ listeningId: first.body.res.listeningId, reason: 'expired' });
    expect(phone.all('ambient_start')).toHaveLength(1);
    await expect
      .poll(async () => (await auditRows()).map((r) => r.action), { timeout: 15_000 })
      .toEqual(['ambient.stop', 'ambient.renew', 'ambient.start']);
    const [ended] = await auditRows();
    expect(ended.changes).toMatchObject({ reason: { after: 'expired' } });
  });

  it("ends it when a party's page goes", async () => {
    await arrange();
    const { mia, dispatcher } = w;
    await allow('announced');
    const phone = await openTalk(mia);
    const desk = await w.open(dispatcher);
    const { listeningId } = (await start(mia.id, dispatcher)).body.res;
    await phone.next('ambient_start');
    expect(await phone.emitAck('ambient_offer', { listeningId, ...OFFER })).toEqual({ success: true });
    await desk.next('ambient_offer');
    phone.close();
    expect(await desk.next('ambient_end')).toEqual({ listeningId, reason: 'closed' });
  });
});
