/**
 * A voice record nobody can forge (issue 35): a transmission is kept only for a real floor grant, which the
 * upload names, dated by the grant; and a channel the media server records takes no upload without a grant.
 */
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { multipartForm, webmOpus } from './chat-fixtures.ts';
import { type Account, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, eventually, listen } from './realtime-harness.ts';
import { voiceRequests, voiceWorld } from './voice-fixtures.ts';

describe.each(databases)('a voice record nobody can forge on %s (issue 35)', (dialect) => {
  const world = voiceWorld(dialect);
  const { storedFiles, grant, uploadVoice, sendVoice } = voiceRequests(world);
  let app: TestApp;
  let admin: Account;
  let mia: Account;
  let channel: { id: number; rtcSession: string };
  beforeEach(() => {
    ({ app, admin, mia, channel } = world);
  });

  it('keeps a transmission of a real floor grant once, dated by the grant, and nothing without one', async () => {
    const url = await listen(app);
    const socket = await connect(url, mia.token);
    try {
      expect((await socket.emitAck('join_room', { room: channel.rtcSession, mode: 'talk' })).success).toBe(true);
      const answer = (await socket.emitAck('floor_request', { room: channel.rtcSession })) as unknown as {
        grantId: string;
      };
      expect(answer).toEqual({ granted: true, grantId: expect.stringMatching(/^[\w-]{8,64}$/) });
      const burst = await eventually(
        async () => (await app.services.talkBursts.ofUser(mia.id, 1))[0],
        'the grant kept as a talk burst',
      );
      socket.socket.emit('floor_release', { room: channel.rtcSession });
      await eventually(async () => (await app.services.talkBursts.byId(burst.id))?.endedAt, 'the grant ended');
      // The browser's clock is 3 s off: the record says when the floor was granted.
      const claimed = new Date(Date.parse(burst.startedAt) + 3000).toISOString();
      const named = { channelId: channel.id, startedAt: claimed, durationMs: 500, grantId: answer.grantId };
      const sent = await sendVoice(mia.token, named);
      expect(sent.status).toBe(200);
      expect(sent.body.res.createdAt).toBe(burst.startedAt);
      // The same grant again (another clientId): refused, nothing written.
      const again = await sendVoice(mia.token, named);
      expect(again.status).toBe(409);
      expect(again.body.result).toMatch(/^No transmission of yours matches this recording/);
      expect(storedFiles()).toHaveLength(1);
    } finally {
      socket.close();
    }
  });

  it('refuses a recording naming no grant (an older page) or longer than its grant', async () => {
    const now = Date.now();
    const refused = async (fields: Record<string, string | number>) => {
      const answer = await sendVoice(mia.token, { channelId: channel.id, durationMs: 2000, ...fields });
      expect(answer.status).toBe(409);
      expect(answer.body.result).toMatch(/^No transmission of yours matches/);
    };
    // A grant of hers at that very time is not found by time: the upload names none.
    await grant(mia.id, new Date(now - 20_000), 2000);
    await refused({ startedAt: new Date(now - 20_000).toISOString() });
    // Longer than its grant (2 s) by more than 2 s.
    const { grantId } = await grant(mia.id, new Date(now - 60_000), 2000);
    await refused({ startedAt: new Date(now - 60_000).toISOString(), durationMs: 4500, grantId });
    expect(storedFiles()).toHaveLength(0);
    // The same grant, within the tolerance, is kept, dated by the grant whatever the browser's clock says.
    const kept = await sendVoice(mia.token, {
      channelId: channel.id,
      startedAt: new Date(now - 3 * 24 * 3600_000).toISOString(),
      durationMs: 3900,
      grantId,
    });
    expect(kept.status).toBe(200);
    expect(kept.body.res.createdAt).toBe(new Date(now - 60_000).toISOString());
  });

  it("finds the grant by the id the upload names, and refuses another user's, an unknown or another channel's", async () => {
    const now = Date.now();
    const bravo = (await app.call('/user/api/createChannel', { channelName: 'Bravo' }, admin.token)).body.res;
    await app.call('/user/api/addUserToChannel', { userId: mia.id, channelId: bravo.id }, admin.token);
    // Two grants of hers that started at the same moment (a time search could not tell them apart).
    const first = await grant(mia.id, new Date(now - 30_000), 2000);
    const second = await grant(mia.id, new Date(now - 30_000), 4000);
    const adas = await grant(admin.id, new Date(now - 30_000), 2000);
    const inBravo = await grant(mia.id, new Date(now - 30_000), 2000, 'mesh', bravo);
    const upload = (grantId: string, durationMs = 2000) =>
      sendVoice(mia.token, { channelId: channel.id, startedAt: new Date(now).toISOString(), durationMs, grantId });

    const someoneElses = await upload(adas.grantId);
    expect(someoneElses.status).toBe(403);
    expect(someoneElses.body.result).toBe('grantId: this floor grant was given to someone else.');
    const unknown = await upload(randomUUID());
    expect(unknown.status).toBe(400);
    expect(unknown.body.result).toMatch(/^grantId: no floor grant has this id/);
    const elsewhere = await upload(inBravo.grantId);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.result).toBe('grantId: this floor grant was given in another channel.');
    expect(storedFiles()).toHaveLength(0);

    // The second grant, by its id: a 5.5 s recording fits it (4 s + 2 s), not the first one (2 s).
    const kept = await upload(second.grantId, 5500);
    expect(kept.status).toBe(200);
    const kepts = await app.services.db
      .selectFrom('voice_messages')
      .select('talk_burst_id')
      .where('id', '=', kept.body.res.id)
      .executeTakeFirstOrThrow();
    expect(kepts.talk_burst_id).toBe(second.id);
    // Spent now: the same id again is refused; the first grant is still its own.
    expect((await upload(second.grantId)).status).toBe(409);
    expect((await upload(first.grantId)).status).toBe(200);
  });

  it('refuses uploads where the media server records the channel', async () => {
    const at = new Date(Date.now() - 5000);
    const { grantId } = await grant(mia.id, at, 2000, 'server');
    const answer = await sendVoice(mia.token, {
      channelId: channel.id,
      startedAt: at.toISOString(),
      durationMs: 1000,
      grantId,
    });
    expect(answer.status).toBe(409);
    expect(answer.body.result).toBe(
      "The media server records this channel's transmissions: a recording sent by a browser is not kept.",
    );
    expect(storedFiles()).toHaveLength(0);
  });

  it('limits how many transmissions one user uploads in a minute, like images', async () => {
    const base = Date.now() - 600_000;
    for (let i = 0; i < 30; i += 1)
      expect((await uploadVoice(mia, { startedAt: new Date(base + i * 10_000).toISOString() })).status).toBe(200);
    const over = await uploadVoice(mia, { startedAt: new Date(base + 300_000).toISOString() });
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'too_many_uploads', params: { seconds: expect.any(Number) } });
    // Another talker is not held back.
    expect((await uploadVoice(admin)).status).toBe(200);
  });
});

describe.each(databases)('voice uploads with a media server on %s', (dialect) => {
  it('refuses a recording without a grant on a channel the media server records', async () => {
    const app = await startApp(dialect, { janusUrls: ['ws://127.0.0.1:1'] });
    try {
      const admin = await signUpAdmin(app);
      const channel = (await app.call('/user/api/createChannel', { channelName: 'Relay' }, admin.token)).body.res;
      const form = multipartForm(
        { channelId: channel.id, startedAt: new Date().toISOString(), durationMs: 1000 },
        { field: 'audio', fileName: 'talk.webm', contentType: 'audio/webm', bytes: webmOpus() },
      );
      const response = await app.fastify.inject({
        method: 'POST',
        url: '/user/api/uploadVoiceMessage',
        headers: { 'content-type': form.contentType, 'x-access-token': admin.token },
        payload: form.payload,
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().result).toMatch(/^The media server records this channel/);
    } finally {
      await app.close();
    }
  });
});
