/**
 * Live video (issue 61 items 1 and 3): a page's `video_start` is answered at once with its streamId; its audience
 * (the channel's dispatchers and the administrators, or every member with videoAudience 'channel'; a private
 * call's other party only) hears `video_started` and `video_ended`, nobody else; getLiveVideos lists what the
 * reader may watch now; a listen-only member is refused with 403 and a sentence in its page's language; a stream
 * ends when its sharer stops it, leaves the channel or goes; video never takes the floor.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { databases } from './harness.ts';
import type { TestClient } from './realtime-harness.ts';
import { type VideoWorld, videoWorld } from './video-world.ts';

describe.each(databases)('live video on %s', { timeout: 90_000 }, (dialect) => {
  let w: VideoWorld;
  afterEach(async () => {
    await w.close();
  });

  const live = async (token: string, channelId?: number) => {
    const answer = await w.app.call('/user/api/getLiveVideos', channelId ? { channelId } : {}, token);
    expect(answer.status).toBe(200);
    return answer.body.res.map((video: { streamId: string }) => video.streamId);
  };
  const nameOf = async (userId: number) => (await w.app.services.users.row(userId))?.display_name;
  const nothing = async (pages: TestClient[], event: string) => {
    for (const page of pages) await page.flush();
    for (const page of pages) expect(page.all(event)).toEqual([]);
  };

  it('answers a start at once and tells the dispatchers, the administrators and the sharer’s pages only', async () => {
    w = await videoWorld(dialect);
    const phone = await w.inRoom(w.mia);
    const miaConsole = await w.open(w.mia, { console: true });
    const danaDesk = await w.open(w.dana, { console: true });
    const adminDesk = await w.open(w.admin, { console: true });
    const olafPhone = await w.inRoom(w.olaf);
    const lenaPhone = await w.inRoom(w.lena);
    const ottoDesk = await w.open(w.otto, { console: true });

    const started = await phone.emitAck('video_start', { room: w.field.rtcSession });
    expect(started).toEqual({ success: true, streamId: expect.any(String), maxViewers: 4, via: 'mesh' });
    const { streamId } = started as unknown as { streamId: string };
    const told = {
      room: w.field.rtcSession,
      channelId: w.field.id,
      streamId,
      userId: w.mia.id,
      name: await nameOf(w.mia.id),
      startedAt: expect.any(String),
    };
    for (const page of [danaDesk, adminDesk, miaConsole, phone]) expect(await page.next('video_started')).toEqual(told);
    await nothing([olafPhone, lenaPhone, ottoDesk], 'video_started');
    // The same page starting again in the same channel has the same stream.
    expect(await phone.emitAck('video_start', { room: w.field.rtcSession })).toMatchObject({ streamId });

    expect(await live(w.dana.token)).toEqual([streamId]);
    expect(await live(w.admin.token)).toEqual([streamId]);
    expect(await live(w.mia.token)).toEqual([streamId]);
    expect(await live(w.olaf.token)).toEqual([]);
    expect(await live(w.otto.token)).toEqual([]);
    expect(await live(w.dana.token, w.depot.id)).toEqual([]);
    const listed = (await w.app.call('/user/api/getLiveVideos', {}, w.dana.token)).body.res;
    expect(listed).toEqual([{ ...told, viewers: 0, maxViewers: 4, via: 'mesh', startedAt: expect.any(String) }]);
    expect((await w.app.call('/user/api/getLiveVideos', { channelId: 'x' }, w.dana.token)).status).toBe(400);
    expect((await w.app.call('/user/api/getLiveVideos', {}, undefined)).status).toBe(401);

    // Video never holds the floor: another member's press is granted while it is live, and the sharer's too after.
    expect(await olafPhone.emitAck('floor_request', { room: w.field.rtcSession })).toMatchObject({ granted: true });
    olafPhone.socket.emit('floor_release', { room: w.field.rtcSession });
    await phone.next('floor_idle');
    expect(await phone.emitAck('floor_request', { room: w.field.rtcSession })).toMatchObject({ granted: true });
  });

  it("shows it to every member with videoAudience 'channel', which createChannel, updateChannel and the lists carry", async () => {
    w = await videoWorld(dialect);
    const { admin } = w;
    const created = await w.app.call(
      '/user/api/createChannel',
      { channelName: 'Yard', videoAudience: 'channel' },
      admin.token,
    );
    expect(created.body.res).toMatchObject({ name: 'Yard', videoAudience: 'channel' });
    const plain = await w.app.call('/user/api/createChannel', { channelName: 'Shed' }, admin.token);
    expect(plain.body.res.videoAudience).toBe('dispatch');
    const bad = await w.app.call('/user/api/createChannel', { channelName: 'Bad', videoAudience: 'all' }, admin.token);
    expect(bad.status).toBe(400);
    expect(bad.body.result).toMatch(/videoAudience/);
    const audienceOf = async () =>
      Object.fromEntries(
        (await w.app.call('/user/api/getAllChannels', {}, admin.token)).body.res.map(
          (c: { name: string; videoAudience: string }) => [c.name, c.videoAudience],
        ),
      );
    expect(await audienceOf()).toMatchObject({ Field: 'dispatch', Yard: 'channel', Shed: 'dispatch' });
    const updated = await w.app.call(
      '/user/api/updateChannel',
      { channelId: w.field.id, channelName: 'Field', videoAudience: 'channel' },
      admin.token,
    );
    expect(updated.body.res.videoAudience).toBe('channel');
    // The whole list, kept up to date entry by entry, shows the change (migration 0043's trigger).
    expect(await audienceOf()).toMatchObject({ Field: 'channel' });

    const phone = await w.inRoom(w.mia);
    const olafPhone = await w.inRoom(w.olaf);
    const lenaPhone = await w.inRoom(w.lena);
    const ottoDesk = await w.open(w.otto, { console: true });
    const streamId = await w.share(phone);
    expect(await olafPhone.next('video_started')).toMatchObject({ streamId, userId: w.mia.id });
    expect(await lenaPhone.next('video_started')).toMatchObject({ streamId });
    await nothing([ottoDesk], 'video_started');
    expect(await live(w.olaf.token)).toEqual([streamId]);
    expect(await live(w.lena.token)).toEqual([streamId]);
    expect(await live(w.otto.token)).toEqual([]);

    // Back to the desks only: a member no longer lists it.
    await w.app.call(
      '/user/api/updateChannel',
      { channelId: w.field.id, channelName: 'Field', videoAudience: 'dispatch' },
      admin.token,
    );
    expect(await live(w.olaf.token)).toEqual([]);
    expect(await live(w.dana.token)).toEqual([streamId]);
    expect(await audienceOf()).toMatchObject({ Field: 'dispatch' });
  });

  it('refuses a listen-only member with 403 and a sentence in its page’s language, and a room it is not in', async () => {
    w = await videoWorld(dialect);
    const danaDesk = await w.open(w.dana, { console: true });
    const lenaPhone = await w.inRoom(w.lena);
    expect(await lenaPhone.emitAck('video_start', { room: w.field.rtcSession })).toEqual({
      success: false,
      status: 403,
      code: 'video_listen_only',
      result: 'You may only listen in this channel: you may not share video there.',
    });
    const french = await w.inRoom(w.lena, undefined, { language: 'fr-FR,fr;q=0.9' });
    expect(await french.emitAck('video_start', { room: w.field.rtcSession })).toMatchObject({
      status: 403,
      result: 'Vous pouvez seulement écouter dans ce canal : vous ne pouvez pas y partager de vidéo.',
    });
    const german = await w.inRoom(w.lena, undefined, { language: 'de' });
    expect(await german.emitAck('video_start', { room: w.field.rtcSession })).toMatchObject({
      code: 'video_listen_only',
      result: 'Sie dürfen in diesem Kanal nur zuhören: Sie dürfen dort kein Video teilen.',
    });

    const outside = await w.open(w.mia);
    const notIn = await outside.emitAck('video_start', { room: w.field.rtcSession });
    expect(notIn).toEqual({ success: false, result: 'video_start: join a room first (join_room).' });
    const blank = await outside.emitAck('video_start', { room: '' });
    expect(blank).toMatchObject({ success: false, result: expect.stringMatching(/^video_start: room/) });
    expect((await outside.emitAck('video_stop', { streamId: 'x' })).result).toMatch(/streamId/);
    await nothing([danaDesk], 'video_started');
    expect(await live(w.dana.token)).toEqual([]);
  });

  it('ends it for its audience when its sharer stops it, leaves the channel or goes, or may no longer share', async () => {
    w = await videoWorld(dialect);
    const danaDesk = await w.open(w.dana, { console: true });
    const olafPhone = await w.inRoom(w.olaf);
    const phone = await w.inRoom(w.mia);
    const endedAt = async (streamId: string) =>
      (
        await w.app.services.db
          .selectFrom('videos')
          .select('ended_at')
          .where('stream_id', '=', streamId)
          .executeTakeFirst()
      )?.ended_at;

    const first = await w.share(phone);
    await danaDesk.next('video_started');
    expect(await endedAt(first)).toBeNull();
    // Only its sharer stops it.
    expect(await olafPhone.emitAck('video_stop', { room: w.field.rtcSession, streamId: first })).toMatchObject({
      success: false,
      code: 'video_not_found',
      status: 404,
    });
    expect(await phone.emitAck('video_stop', { room: w.field.rtcSession, streamId: first })).toEqual({ success: true });
    const stopped = { room: w.field.rtcSession, channelId: w.field.id, streamId: first, reason: 'stopped' };
    expect(await danaDesk.next('video_ended')).toEqual(stopped);
    expect(await phone.next('video_ended')).toEqual(stopped);
    expect(await endedAt(first)).toEqual(expect.any(String));
    expect((await phone.emitAck('video_stop', { streamId: first })).success).toBe(false);
    expect(await live(w.dana.token)).toEqual([]);

    const second = await w.share(phone);
    expect(second).not.toBe(first);
    await danaDesk.next('video_started');
    expect(await phone.emitAck('leave_room', { room: w.field.rtcSession })).toEqual({ success: true });
    expect(await danaDesk.next('video_ended')).toMatchObject({ streamId: second, reason: 'left' });

    expect((await phone.emitAck('join_room', { room: w.field.rtcSession, mode: 'talk' })).success).toBe(true);
    const third = await w.share(phone);
    await danaDesk.next('video_started');
    phone.close();
    expect(await danaDesk.next('video_ended')).toMatchObject({ streamId: third, reason: 'left' });
    expect(await live(w.dana.token)).toEqual([]);
    expect(await endedAt(third)).toEqual(expect.any(String));
    await nothing([olafPhone], 'video_ended');

    // Made listen-only while sharing: the server ends it.
    const fourthPage = await w.inRoom(w.mia);
    const fourth = await w.share(fourthPage);
    await danaDesk.next('video_started');
    const rights = { channelId: w.field.id, userId: w.mia.id, canTalk: false };
    expect((await w.app.call('/user/api/setChannelMemberRights', rights, w.admin.token)).status).toBe(200);
    expect(await danaDesk.next('video_ended')).toMatchObject({ streamId: fourth, reason: 'closed' });
    expect(await fourthPage.next('video_ended')).toMatchObject({ streamId: fourth, reason: 'closed' });
  });

  it("keeps a private call's stream between its two parties", async () => {
    w = await videoWorld(dialect);
    const adminDesk = await w.open(w.admin, { console: true });
    const ottoDesk = await w.open(w.otto, { console: true });
    const danaPage = await w.open(w.dana);
    const miaPage = await w.open(w.mia);
    const call = await w.app.call('/user/api/startPrivateCall', { userId: w.mia.id }, w.dana.token);
    expect(call.status).toBe(200);
    const { callId, room } = call.body.res;
    expect((await w.app.call('/user/api/answerPrivateCall', { callId, accept: true }, w.mia.token)).status).toBe(200);
    for (const page of [danaPage, miaPage])
      expect((await page.emitAck('join_room', { room, mode: 'talk' })).success).toBe(true);

    const streamId = await w.share(miaPage, room);
    expect(await danaPage.next('video_started')).toMatchObject({ streamId, room, userId: w.mia.id });
    await nothing([adminDesk, ottoDesk], 'video_started');
    expect(await live(w.dana.token)).toEqual([streamId]);
    expect(await live(w.admin.token)).toEqual([]);
    // To anyone else it is a stream that does not exist.
    expect(await adminDesk.emitAck('video_watch', { streamId })).toMatchObject({
      code: 'video_not_found',
      status: 404,
    });

    // The call ends: its parties are put out of its room, and the stream ends with it.
    expect((await w.app.call('/user/api/endPrivateCall', { callId }, w.dana.token)).status).toBe(200);
    expect(await danaPage.next('video_ended')).toMatchObject({ streamId, reason: 'closed' });
    await nothing([adminDesk], 'video_ended');
  });
});
