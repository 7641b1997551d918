/**
 * A dispatcher asks a member for its video (issue 61 item 2): requestVideo refused to whoever may not ask, for a
 * member who may not share or whose /talk is closed; the member's pages get `video_request`, its start naming the
 * request is its yes and its decline reaches the requester (`video_request_answered`), once; with remoteVideo
 * 'without_consent' (setVideoSettings, administrators only) the request tells the page to start without asking.
 * Requests, answers, starts without consent and the setting are audited. A request answered on one of the
 * member's devices leaves the others (`video_request_closed`); one left unanswered expires
 * (VIDEO_REQUEST_SECONDS): the requester is told, the member's question goes, and it is audited.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseVideoConfig } from '../src/config/video.ts';
import { databases } from './harness.ts';
import { type VideoWorld, videoWorld } from './video-world.ts';

describe.each(databases)('video requests on %s', { timeout: 90_000 }, (dialect) => {
  let w: VideoWorld;
  afterEach(async () => {
    await w.close();
  });

  const ask = (userId: number, channelId: number, token: string) =>
    w.app.call('/user/api/requestVideo', { userId, channelId }, token);
  const auditRows = async () =>
    (await w.app.services.audit.page({ start: 0, limit: 100 })).entries.filter(
      (e) => e.action.startsWith('video.') || e.action === 'settings.video',
    );

  it('refuses whoever may not ask, a member who may not share and a member whose /talk is closed', async () => {
    w = await videoWorld(dialect);
    const { mia, field, depot } = w;
    // Her console is open, not her /talk: nobody to ask.
    await w.open(mia, { console: true });
    const closed = await ask(mia.id, field.id, w.dana.token);
    expect(closed).toMatchObject({ status: 409, body: { success: false, code: 'video_app_closed' } });
    expect(closed.body.result).toMatch(/app is not open: a video request can be sent only while it is/);
    await w.open(mia);
    const lena = await w.open(w.lena);
    expect((await ask(mia.id, field.id, w.olaf.token)).body).toMatchObject({ code: 'not_allowed' });
    expect((await ask(mia.id, field.id, w.otto.token)).body).toMatchObject({ code: 'not_channel_member' });
    expect((await ask(mia.id, depot.id, w.dana.token)).status).toBe(403);
    expect((await ask(w.otto.id, field.id, w.dana.token)).body).toMatchObject({ code: 'user_not_channel_member' });
    expect((await ask(w.lena.id, field.id, w.dana.token)).body).toMatchObject({ code: 'video_member_listen_only' });
    expect((await ask(w.dana.id, field.id, w.dana.token)).status).toBe(400);
    expect((await ask(mia.id, 999_999, w.admin.token)).status).toBe(404);
    const bad = await w.app.call('/user/api/requestVideo', { userId: mia.id }, w.dana.token);
    expect(bad.status).toBe(400);
    expect(bad.body.result).toMatch(/channelId/);
    await lena.flush();
    expect(lena.all('video_request')).toEqual([]);
    expect(await auditRows()).toEqual([]);
  });

  it('asks the member’s pages; a start naming the request is its yes, told to the requester once', async () => {
    w = await videoWorld(dialect);
    const { mia, dana, field } = w;
    const phone = await w.inRoom(mia);
    const desk = await w.open(dana, { console: true });
    const asked = await ask(mia.id, field.id, dana.token);
    expect(asked.status).toBe(200);
    const { requestId } = asked.body.res;
    expect(asked.body.res).toEqual({ requestId, userId: mia.id, channelId: field.id, withoutConsent: false });
    const danaName = (await w.app.services.users.row(dana.id))?.display_name;
    expect(await phone.next('video_request')).toEqual({
      requestId,
      channelId: field.id,
      room: field.rtcSession,
      fromUserId: dana.id,
      name: danaName,
      withoutConsent: false,
    });

    // Another member's page may not use it, nor a start in another channel.
    const olafPhone = await w.inRoom(w.olaf);
    expect(await olafPhone.emitAck('video_start', { room: field.rtcSession, requestId })).toMatchObject({
      code: 'video_request_not_found',
    });
    expect(await olafPhone.emitAck('video_request_answer', { requestId, accepted: false })).toMatchObject({
      success: false,
      code: 'video_request_not_found',
    });
    const started = await phone.emitAck('video_start', { room: field.rtcSession, requestId });
    const { streamId } = started as unknown as { streamId: string };
    expect(await desk.next('video_request_answered')).toEqual({ requestId, userId: mia.id, accepted: true });
    expect(await desk.next('video_started')).toMatchObject({ streamId, requestId, userId: mia.id });
    // Taken: neither a second start nor an answer uses it again.
    expect(await phone.emitAck('video_request_answer', { requestId, accepted: false })).toMatchObject({
      code: 'video_request_not_found',
    });
    await desk.flush();
    expect(desk.all('video_request_answered')).toHaveLength(1);
    await expect
      .poll(async () => (await auditRows()).map((row) => row.action), { timeout: 15_000 })
      .toEqual(['video.answer', 'video.request']);
    const [answer, request] = await auditRows();
    expect(request).toMatchObject({ actor: { id: dana.id }, targetType: 'user', targetId: mia.id });
    expect(request.changes).toMatchObject({ videoRequestId: { after: requestId }, withoutConsent: { after: false } });
    expect(answer).toMatchObject({ actor: { id: mia.id }, targetId: mia.id });
    expect(answer.changes).toMatchObject({ accepted: { after: true }, streamId: { after: streamId } });
  });

  it('tells the requester a decline, once, and audits it', async () => {
    w = await videoWorld(dialect);
    const { mia, field } = w;
    const phone = await w.inRoom(mia);
    const adminDesk = await w.open(w.admin, { console: true });
    const { requestId } = (await ask(mia.id, field.id, w.admin.token)).body.res;
    await phone.next('video_request');
    expect(await phone.emitAck('video_request_answer', { requestId, accepted: false })).toEqual({ success: true });
    expect(await adminDesk.next('video_request_answered')).toEqual({ requestId, userId: mia.id, accepted: false });
    expect(await phone.emitAck('video_request_answer', { requestId, accepted: true })).toMatchObject({
      success: false,
      status: 404,
    });
    // A declined request does not start anything.
    expect(await phone.emitAck('video_start', { room: field.rtcSession, requestId })).toMatchObject({
      code: 'video_request_not_found',
    });
    expect((await phone.emitAck('video_request_answer', { requestId: 'short', accepted: true })).result).toMatch(
      /requestId/,
    );
    const rows = await auditRows();
    expect(rows.map((row) => row.action)).toEqual(['video.answer', 'video.request']);
    expect(rows[0].changes).toMatchObject({ accepted: { after: false } });
  });

  it("closes the question on the member's other devices once one answers it", async () => {
    w = await videoWorld(dialect);
    const { mia, field } = w;
    const phone = await w.inRoom(mia);
    const tablet = await w.inRoom(mia);
    const { requestId } = (await ask(mia.id, field.id, w.dana.token)).body.res;
    await phone.next('video_request');
    await tablet.next('video_request');
    expect(await phone.emitAck('video_request_answer', { requestId, accepted: false })).toEqual({ success: true });
    expect(await tablet.next('video_request_closed')).toEqual({ requestId, reason: 'declined' });
    // A start that answers a second request closes it too.
    const second = (await ask(mia.id, field.id, w.dana.token)).body.res.requestId;
    await tablet.next('video_request', (request) => request.requestId === second);
    const started = await phone.emitAck('video_start', { room: field.rtcSession, requestId: second });
    expect(started).toMatchObject({ success: true });
    expect(await tablet.next('video_request_closed', (closed) => closed.requestId === second)).toEqual({
      requestId: second,
      reason: 'started',
    });
  });

  it('expires a request left unanswered: the requester is told, the question goes, it is audited', async () => {
    w = await videoWorld(dialect, { video: { ...parseVideoConfig({}), requestTtlMs: 1_500 } });
    const { mia, dana, field } = w;
    const phone = await w.inRoom(mia);
    const desk = await w.open(dana, { console: true });
    const { requestId } = (await ask(mia.id, field.id, dana.token)).body.res;
    await phone.next('video_request');
    expect(await desk.next('video_request_answered')).toEqual({
      requestId,
      userId: mia.id,
      accepted: false,
      expired: true,
    });
    expect(await phone.next('video_request_closed')).toEqual({ requestId, reason: 'expired' });
    // Too late: the answer and the start are refused, and the requester hears nothing more.
    expect(await phone.emitAck('video_request_answer', { requestId, accepted: true })).toMatchObject({
      success: false,
      status: 404,
    });
    expect(await phone.emitAck('video_start', { room: field.rtcSession, requestId })).toMatchObject({
      code: 'video_request_not_found',
    });
    await desk.flush();
    expect(desk.all('video_request_answered')).toHaveLength(1);
    await expect
      .poll(async () => (await auditRows()).map((row) => row.action), { timeout: 15_000 })
      .toEqual(['video.request_expired', 'video.request']);
    expect((await auditRows())[0]).toMatchObject({ actor: { id: dana.id }, targetId: mia.id });
  });

  it('lets a member already sharing answer a request with its stream', async () => {
    w = await videoWorld(dialect);
    const { mia, field } = w;
    const phone = await w.inRoom(mia);
    const desk = await w.open(w.dana, { console: true });
    const streamId = await w.share(phone);
    const { requestId } = (await ask(mia.id, field.id, w.dana.token)).body.res;
    await phone.next('video_request');
    expect(await phone.emitAck('video_start', { room: field.rtcSession, requestId })).toMatchObject({ streamId });
    expect(await desk.next('video_request_answered')).toEqual({ requestId, userId: mia.id, accepted: true });
    expect(await phone.emitAck('video_start', { room: field.rtcSession, requestId })).toMatchObject({
      code: 'video_request_not_found',
    });
  });

  it("with 'without_consent' tells the page to start without asking, and audits the setting and the start", async () => {
    w = await videoWorld(dialect);
    const { mia, dana, field, admin } = w;
    expect((await w.app.call('/user/api/getVideoSettings', {}, mia.token)).body.res).toEqual({
      remoteVideo: 'consent',
    });
    const refused = await w.app.call('/user/api/setVideoSettings', { remoteVideo: 'without_consent' }, dana.token);
    expect(refused).toMatchObject({ status: 403, body: { code: 'admin_only' } });
    const wrong = await w.app.call('/user/api/setVideoSettings', { remoteVideo: 'always' }, admin.token);
    expect(wrong.status).toBe(400);
    expect(wrong.body.result).toMatch(/remoteVideo/);
    const set = await w.app.call('/user/api/setVideoSettings', { remoteVideo: 'without_consent' }, admin.token);
    expect(set.body).toMatchObject({
      success: true,
      code: 'video_settings_saved',
      res: { remoteVideo: 'without_consent' },
    });
    expect((await w.app.call('/user/api/getVideoSettings', {}, mia.token)).body.res.remoteVideo).toBe(
      'without_consent',
    );

    const phone = await w.inRoom(mia);
    const desk = await w.open(dana, { console: true });
    const { requestId, withoutConsent } = (await ask(mia.id, field.id, dana.token)).body.res;
    expect(withoutConsent).toBe(true);
    expect(await phone.next('video_request')).toMatchObject({ requestId, withoutConsent: true });
    const streamId = (
      (await phone.emitAck('video_start', { room: field.rtcSession, requestId })) as unknown as {
        streamId: string;
      }
    ).streamId;
    expect(await desk.next('video_started')).toMatchObject({ streamId, requestId });
    await desk.flush();
    // Nobody answered: the requester learns of it by the start, not by an answer.
    expect(desk.all('video_request_answered')).toEqual([]);
    await expect
      .poll(async () => (await auditRows()).map((row) => row.action), { timeout: 15_000 })
      .toEqual(['video.start_without_consent', 'video.request', 'settings.video']);
    const [start, , setting] = await auditRows();
    expect(start).toMatchObject({ actor: { id: dana.id }, targetId: mia.id });
    expect(start.changes).toMatchObject({ streamId: { after: streamId }, videoRequestId: { after: requestId } });
    expect(setting).toMatchObject({ actor: { id: admin.id }, targetType: 'setting' });
    expect(setting.changes).toEqual({ remoteVideo: { before: 'consent', after: 'without_consent' } });
    const row = await w.app.services.videos.byStream(streamId);
    expect(row).toMatchObject({ request_id: requestId, without_consent: 1 });
  });
});
