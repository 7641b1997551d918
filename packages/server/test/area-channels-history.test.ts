/**
 * An area channel's member reads from the moment he entered (issue 69 item 3): its messages, transmissions and
 * video recordings from before his entry are not his to read, in the lists or by a signed link; one added by hand
 * reads everything, as before. And an area's zone is an administrator's: a dispatcher who may draw in the fence's
 * channel may neither change nor delete a fence an area channel follows (403 `geofence_area_admin_only`, the
 * refusal audited), so that no dispatcher widens an area over another team's site.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { VOICE_FILES_PREFIX } from '../src/voice/store.ts';
import { type Account, databases } from './harness.ts';
import { world } from './world.ts';

const CENTRE = { lat: 45.764, lng: 4.8357 };
const INSIDE = { lat: CENTRE.lat + 10 / 111_195, lng: CENTRE.lng, accuracy: 10 };
const MINUTE = 60_000;

describe.each(databases)('an area channel’s history and zone on %s', { timeout: 60_000 }, (dialect) => {
  const w = world(dialect, {
    people: {
      bob: { role: 'member', firstName: 'Bob', lastName: 'Field', mapRight: true },
      carol: { role: 'member', firstName: 'Carol', lastName: 'Hand' },
      dana: { role: 'dispatcher', firstName: 'Dana', lastName: 'Desk' },
    },
  });
  let fenceId: number;
  let areaId: number;

  beforeEach(async () => {
    const { app, admin, carol, dana } = w;
    const team = await app.call('/user/api/createChannel', { channelName: 'Depot team' }, admin.token);
    const fence = await app.call(
      '/user/api/createGeofence',
      { name: 'Depot', channelId: team.body.res.id, shape: { type: 'circle', ...CENTRE, radiusM: 300 } },
      admin.token,
    );
    fenceId = fence.body.res.id;
    const area = await app.call(
      '/user/api/createChannel',
      { channelName: 'Depot area', areaGeofenceId: fenceId, videoAudience: 'channel' },
      admin.token,
    );
    areaId = area.body.res.id;
    for (const [userId, channelId] of [
      [dana.id, team.body.res.id],
      [dana.id, areaId],
      [carol.id, areaId],
    ])
      expect((await app.call('/user/api/addUserToChannel', { userId, channelId }, admin.token)).status).toBe(200);
  });

  /** What the channel kept at `at`: a message by Dana, a transmission and a video recording; the voice's file. */
  const keep = async (text: string, at: Date) => {
    const sent = await w.app.call('/user/api/sendMessageToChannel', { channelId: areaId, message: text }, w.dana.token);
    expect(sent.status).toBe(200);
    const { db } = w.app.services;
    await db.updateTable('messages').set({ created_at: at.toISOString() }).where('id', '=', sent.body.res.id).execute();
    const fileName = `${text.padEnd(32, '0').replace(/[^0-9a-f]/g, 'a')}.webm`;
    const voice = await db
      .insertInto('voice_messages')
      .values({
        channel_id: areaId,
        user_id: w.dana.id,
        user_display_name: 'Dana Desk',
        file_name: fileName,
        mime: 'audio/webm',
        size_bytes: 4,
        duration_ms: 1000,
        created_at: at.toISOString(),
        uploaded_at: at.toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const file = w.app.services.voice.pathOf({ channel_id: areaId, file_name: fileName });
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'opus');
    await db
      .insertInto('videos')
      .values({
        stream_id: `stream-${text}`,
        channel_id: areaId,
        user_id: w.dana.id,
        user_display_name: 'Dana Desk',
        started_at: at.toISOString(),
        ended_at: new Date(at.getTime() + 5000).toISOString(),
        request_id: null,
        file_name: `${text}.webm`,
        mime: 'video/webm',
        size_bytes: 4,
        duration_ms: 5000,
        uploaded_at: at.toISOString(),
      })
      .execute();
    return { voiceId: voice.id, fileName };
  };
  const readBy = async (account: Account) => {
    const messages = await w.app.call('/user/api/getchannelmessagelistForAdmin', { channelId: areaId }, account.token);
    const voice = await w.app.call('/user/api/getChannelVoiceMessages', { channelId: areaId }, account.token);
    const videos = await w.app.call('/user/api/getChannelVideos', { channelId: areaId }, account.token);
    expect([messages.status, voice.status, videos.status]).toEqual([200, 200, 200]);
    return {
      messages: messages.body.discussion.map((m: { textMsg: string }) => m.textMsg),
      voice: voice.body.res.map((v: { id: number }) => v.id).sort(),
      videos: videos.body.res.map((v: { streamId: string }) => v.streamId).sort(),
    };
  };
  const voiceLink = (fileName: string, reader: Account) =>
    w.app.fastify.inject({
      method: 'GET',
      url: w.app.services.fileUrls.sign(fileName, reader.id, undefined, VOICE_FILES_PREFIX),
    });

  it('lets a member the area brought in read from his entry, and one added by hand everything', async () => {
    const { app, admin, bob, carol } = w;
    const before = await keep('before', new Date(Date.now() - 10 * MINUTE));
    const phone = await w.open(bob);
    expect(await phone.emitAck('onLocationChanged', INSIDE)).toMatchObject({ success: true });
    await phone.next('onChannelsChanged');
    const after = await keep('after', new Date(Date.now() + MINUTE));

    expect(await readBy(bob)).toEqual({ messages: ['after'], voice: [after.voiceId], videos: ['stream-after'] });
    expect((await voiceLink(before.fileName, bob)).statusCode).toBe(403);
    expect((await voiceLink(after.fileName, bob)).statusCode).toBe(200);
    // Paging back from his first message finds nothing older.
    const older = await app.call(
      '/user/api/getChannelVoiceMessages',
      { channelId: areaId, beforeId: after.voiceId },
      bob.token,
    );
    expect(older.body.res).toEqual([]);

    const everything = {
      messages: ['before', 'after'],
      voice: [before.voiceId, after.voiceId].sort(),
      videos: ['stream-after', 'stream-before'],
    };
    expect(await readBy(carol)).toEqual(everything);
    expect((await voiceLink(before.fileName, carol)).statusCode).toBe(200);
    // The administrator adds Bob by hand: a membership like any other, the whole history with it.
    expect(
      (await app.call('/user/api/addUserToChannel', { userId: bob.id, channelId: areaId }, admin.token)).status,
    ).toBe(200);
    expect(await readBy(bob)).toEqual(everything);
  });

  it('lets only an administrator change or delete the zone an area channel follows, and audits a refusal', async () => {
    const { app, admin, dana } = w;
    const wider = { type: 'circle', ...CENTRE, radiusM: 50_000 };
    const moved = await app.call('/user/api/updateGeofence', { id: fenceId, shape: wider }, dana.token);
    expect(moved.status).toBe(403);
    expect(moved.body).toMatchObject({ success: false, code: 'geofence_area_admin_only' });
    expect(moved.body.result).toContain('Depot area');
    const deleted = await app.call('/user/api/deleteGeofence', { id: fenceId }, dana.token);
    expect(deleted.status).toBe(403);
    expect(deleted.body.code).toBe('geofence_area_admin_only');
    const fence = (await app.call('/user/api/getGeofences', {}, admin.token)).body.res.find(
      (f: { id: number }) => f.id === fenceId,
    );
    expect(fence.shape.radiusM).toBe(300);

    const log = async () =>
      (await app.call('/user/api/getAuditLog', { targetType: 'geofence' }, admin.token)).body.res.entries.filter(
        (entry: { action: string }) => entry.action !== 'geofence.create',
      );
    expect(await log()).toEqual([
      expect.objectContaining({
        action: 'geofence.delete_refused',
        actor: expect.objectContaining({ id: dana.id }),
        targetId: fenceId,
        targetName: 'Depot',
        changes: { refused: { before: null, after: 'geofence_area_admin_only' } },
      }),
      expect.objectContaining({ action: 'geofence.update_refused', targetId: fenceId }),
    ]);

    // The administrator may, audited as any change; a fence no area follows stays the dispatcher's.
    expect((await app.call('/user/api/updateGeofence', { id: fenceId, name: 'Depot yard' }, admin.token)).status).toBe(
      200,
    );
    expect((await log())[0]).toMatchObject({ action: 'geofence.update', changes: { name: { after: 'Depot yard' } } });
    expect(
      (
        await app.call(
          '/user/api/updateChannel',
          { channelId: areaId, channelName: 'Depot area', areaGeofenceId: null },
          admin.token,
        )
      ).status,
    ).toBe(200);
    expect((await app.call('/user/api/updateGeofence', { id: fenceId, shape: wider }, dana.token)).status).toBe(200);
    expect((await app.call('/user/api/deleteGeofence', { id: fenceId }, dana.token)).status).toBe(200);
  });
});
