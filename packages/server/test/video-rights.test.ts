/**
 * A right taken away ends at once (issue 69 item 5, live video): a viewer who may no longer watch a live stream
 * (removed from its channel, its role changed, the channel's videoAudience narrowed, its account disabled) stops
 * receiving it within 2 s of the call that took the right: its place goes, the sharer's page is told to close its
 * connection (`video_viewer_left`), nothing more is relayed to it, and its socket hears `video_ended` with
 * `no_right` (a disabled account's socket is closed, its session ended). The stream goes on for the others. The
 * periodic recheck is an hour away: only the change itself does it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { databases } from './harness.ts';
import type { TestClient } from './realtime-harness.ts';
import { type VideoWorld, videoWorld } from './video-world.ts';

/** How soon a viewer who lost the right stops receiving (issue 69). */
const WITHIN_MS = 2000;

describe.each(databases)('a viewer who loses the right to watch on %s', { timeout: 90_000 }, (dialect) => {
  let w: VideoWorld;
  afterEach(async () => {
    await w.close();
  });

  /** Mia shares from her phone; these pages watch (each offered the stream by the phone). */
  async function watched(viewers: TestClient[]) {
    const phone = await w.inRoom(w.mia);
    const streamId = await w.share(phone);
    for (const viewer of viewers) {
      expect(await viewer.emitAck('video_watch', { streamId })).toEqual({ success: true, streamId });
      expect(await phone.next('video_viewer', (v) => v.viewerSocketId === viewer.id)).toMatchObject({ streamId });
    }
    return { phone, streamId };
  }
  const viewersOf = async (streamId: string) => {
    const live = await w.app.call('/user/api/getLiveVideos', {}, w.admin.token);
    return live.body.res.find((video: { streamId: string }) => video.streamId === streamId)?.viewers;
  };
  /** The viewer is let go: told `no_right`, its place gone, the phone told to close it, nothing relayed to it. */
  async function letGo(phone: TestClient, viewer: TestClient, streamId: string, since: number) {
    expect(await viewer.next('video_ended', (e) => e.streamId === streamId)).toEqual({
      room: w.field.rtcSession,
      channelId: w.field.id,
      streamId,
      reason: 'no_right',
    });
    expect(await phone.next('video_viewer_left', (e) => e.viewerSocketId === viewer.id)).toEqual({
      streamId,
      viewerSocketId: viewer.id,
    });
    expect(Date.now() - since).toBeLessThan(WITHIN_MS);
    const offer = { streamId, viewerSocketId: viewer.id, sdp: 'v=0 after' };
    expect(await phone.emitAck('video_offer', offer)).toMatchObject({ success: false });
    expect(await viewer.emitAck('video_answer', { streamId, sdp: 'v=0' })).toMatchObject({ success: false });
  }

  it('lets go a dispatcher removed from the channel, and one made a member, at once', async () => {
    w = await videoWorld(dialect, { rightsRecheckMs: 3_600_000 });
    const danaDesk = await w.open(w.dana, { console: true });
    const adminDesk = await w.open(w.admin, { console: true });
    const { phone, streamId } = await watched([danaDesk, adminDesk]);
    expect(await viewersOf(streamId)).toBe(2);

    let since = Date.now();
    const removed = await w.app.call(
      '/user/api/deleteUserFromChannel',
      { userId: w.dana.id, channelId: w.field.id },
      w.admin.token,
    );
    expect(removed.status).toBe(200);
    await letGo(phone, danaDesk, streamId, since);
    expect(await viewersOf(streamId)).toBe(1);
    // The administrator still watches: the phone still offers to it.
    const offer = { streamId, viewerSocketId: adminDesk.id, sdp: 'v=0 still' };
    expect(await phone.emitAck('video_offer', offer)).toEqual({ success: true });
    expect(await adminDesk.next('video_offer', (o) => o.sdp === 'v=0 still')).toMatchObject({ streamId });
    expect(adminDesk.all('video_ended')).toEqual([]);

    // Otto, a dispatcher of Field now, watches; made a member, he may no longer.
    await w.app.services.memberships.add(w.field.id, [w.otto.id]);
    const ottoDesk = await w.open(w.otto, { console: true });
    expect(await ottoDesk.emitAck('video_watch', { streamId })).toEqual({ success: true, streamId });
    expect(await phone.next('video_viewer', (v) => v.viewerSocketId === ottoDesk.id)).toMatchObject({ streamId });
    since = Date.now();
    const demoted = await w.app.call(
      '/user/api/updateUserData',
      { id: w.otto.id, firstName: 'Otto', lastName: 'Depot', role: 'member' },
      w.admin.token,
    );
    expect(demoted.status).toBe(200);
    await letGo(phone, ottoDesk, streamId, since);
    expect(await viewersOf(streamId)).toBe(1);
    // Asked again, he is refused as any member outside the audience.
    expect(await ottoDesk.emitAck('video_watch', { streamId })).toMatchObject({ success: false, status: 403 });
  });

  it("lets go the members when the channel's videoAudience is narrowed, and a disabled account's page", async () => {
    w = await videoWorld(dialect, { rightsRecheckMs: 3_600_000 });
    const audience = (videoAudience: string) =>
      w.app.call(
        '/user/api/updateChannel',
        { channelId: w.field.id, channelName: 'Field', videoAudience },
        w.admin.token,
      );
    expect((await audience('channel')).status).toBe(200);
    const olafPhone = await w.inRoom(w.olaf);
    const danaDesk = await w.open(w.dana, { console: true });
    const { phone, streamId } = await watched([olafPhone, danaDesk]);

    const since = Date.now();
    expect((await audience('dispatch')).status).toBe(200);
    await letGo(phone, olafPhone, streamId, since);
    await danaDesk.flush();
    expect(danaDesk.all('video_ended')).toEqual([]);
    expect(await viewersOf(streamId)).toBe(1);

    // Dana's account disabled: her page is closed, and the phone closes its connection to it.
    const danaSocketId = danaDesk.id;
    const disabledAt = Date.now();
    const disabled = await w.app.call(
      '/user/api/setUserDisabled',
      { userId: w.dana.id, disabled: true },
      w.admin.token,
    );
    expect(disabled.status).toBe(200);
    expect(await danaDesk.next('session_ended')).toMatchObject({ reason: 'disabled' });
    expect(await phone.next('video_viewer_left', (e) => e.viewerSocketId === danaSocketId)).toEqual({
      streamId,
      viewerSocketId: danaSocketId,
    });
    expect(Date.now() - disabledAt).toBeLessThan(WITHIN_MS);
    expect(await viewersOf(streamId)).toBe(0);
    // The stream itself goes on.
    expect(await phone.emitAck('video_stop', { streamId })).toEqual({ success: true });
  });
});
