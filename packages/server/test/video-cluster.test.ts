/**
 * Live video across instances (issue 61, PostgreSQL and Redis): a member's page on one instance shares, desks on
 * another watch it, list it, ask for it and hear its answers; the mesh's signalling crosses instances; the 4 places
 * are taken once when pages of both instances ask at once; one request waits per member (issue 69), and a viewer on
 * another instance than the sharer's is let go when its right goes; a stream ends once; and the stream of an
 * instance that is gone is ended by another one.
 */
import { createClient } from 'redis';
import { afterEach, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from './cluster-harness.ts';
import { type Account, createMember, signUpAdmin, type TestApp } from './harness.ts';
import { connect, type TestClient } from './realtime-harness.ts';
import { createWithRole } from './role-fixtures.ts';

const shared = process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL;

describe.runIf(shared)('live video on several instances (PostgreSQL and Redis)', { timeout: 90_000 }, () => {
  let cluster: Cluster;
  const clients: TestClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await cluster.close();
  });

  const arrange = async () => {
    cluster = await startCluster('postgres');
    const [one, two] = cluster.apps;
    const admin = await signUpAdmin(one);
    const mia = await createMember(one, admin, { firstName: 'Mia', lastName: 'Field' });
    const dana = await createWithRole(one, admin, 'dispatcher', { firstName: 'Dana', lastName: 'Desk' });
    const field = (await one.call('/user/api/createChannel', { channelName: 'Field' }, admin.token)).body.res;
    await one.services.memberships.add(field.id, [mia.id, dana.id]);
    return { one, two, admin, mia, dana, room: field.rtcSession as string, channelId: field.id as number };
  };
  const open = async (url: string, account: Account, talkPage = false) => {
    const client = await connect(url, account.token, { talkPage });
    clients.push(client);
    return client;
  };
  const shareFrom = async (url: string, account: Account, room: string) => {
    const phone = await open(url, account, true);
    expect((await phone.emitAck('join_room', { room, mode: 'talk' })).success).toBe(true);
    const started = (await phone.emitAck('video_start', { room })) as unknown as { streamId: string };
    return { phone, streamId: started.streamId };
  };
  const liveIn = async (app: TestApp, token: string) =>
    (await app.call('/user/api/getLiveVideos', {}, token)).body.res.map((v: { streamId: string }) => v.streamId);
  /** The streams this deployment keeps live in Redis. */
  const streamsInRedis = async (app: TestApp) => {
    const redis = createClient({ url: process.env.TEST_REDIS_URL });
    await redis.connect();
    try {
      return await redis.hLen(`${app.config.redisKeyPrefix}video:live`);
    } finally {
      redis.destroy();
    }
  };

  it('shares on one instance, is watched, relayed, asked and ended once from another', async () => {
    const { one, two, admin, mia, dana, room, channelId } = await arrange();
    const desk = await open(cluster.urls[1], dana);
    const { phone, streamId } = await shareFrom(cluster.urls[0], mia, room);
    expect(await desk.next('video_started')).toMatchObject({ streamId, room, userId: mia.id });
    expect(await liveIn(two, dana.token)).toEqual([streamId]);
    expect(await liveIn(one, dana.token)).toEqual([streamId]);
    expect(await streamsInRedis(one)).toBe(1);

    expect(await desk.emitAck('video_watch', { streamId })).toEqual({ success: true, streamId });
    expect(await phone.next('video_viewer')).toMatchObject({ streamId, viewerSocketId: desk.id });
    expect(await phone.emitAck('video_offer', { streamId, viewerSocketId: desk.id, sdp: 'v=0 offer' })).toEqual({
      success: true,
    });
    expect(await desk.next('video_offer')).toEqual({ streamId, sdp: 'v=0 offer' });
    expect(await desk.emitAck('video_answer', { streamId, sdp: 'v=0 answer' })).toEqual({ success: true });
    expect(await phone.next('video_answer')).toEqual({ streamId, viewerSocketId: desk.id, sdp: 'v=0 answer' });

    // Asked through the desk's instance, answered on the phone's: the desk hears it.
    const asked = await two.call('/user/api/requestVideo', { userId: mia.id, channelId }, dana.token);
    expect(asked.status).toBe(200);
    const { requestId } = asked.body.res;
    expect(await phone.next('video_request')).toMatchObject({ requestId, fromUserId: dana.id });
    // Issue 69: while it waits, no other request reaches her, through either instance (one mark in Redis).
    const second = await one.call('/user/api/requestVideo', { userId: mia.id, channelId }, admin.token);
    expect(second).toMatchObject({ status: 409, body: { code: 'video_request_pending' } });
    expect(await phone.emitAck('video_request_answer', { requestId, accepted: false })).toEqual({ success: true });
    expect(await desk.next('video_request_answered')).toEqual({ requestId, userId: mia.id, accepted: false });
    // Answered: the mark went with it.
    expect((await one.call('/user/api/requestVideo', { userId: mia.id, channelId }, admin.token)).status).toBe(200);

    // Pages of both instances ask for the 3 places left at once: 3 get one.
    const adminPages = [];
    for (let i = 0; i < 5; i++) adminPages.push(await open(cluster.urls[i % 2], admin));
    const answers = await Promise.all(adminPages.map((page) => page.emitAck('video_watch', { streamId })));
    expect(answers.filter((answer) => answer.success)).toHaveLength(3);
    expect(answers.filter((answer) => (answer as { code?: string }).code === 'video_viewers_full')).toHaveLength(2);

    // Issue 69: Dana removed from the channel on the phone's instance; her desk, on the other one, is let go there,
    // and the phone closes its connection to it.
    const deskId = desk.id;
    await one.call('/user/api/deleteUserFromChannel', { userId: dana.id, channelId }, admin.token);
    expect(await desk.next('video_ended')).toEqual({ room, channelId, streamId, reason: 'no_right' });
    expect(await phone.next('video_viewer_left', (e) => e.viewerSocketId === deskId)).toEqual({
      streamId,
      viewerSocketId: deskId,
    });

    const watcher = adminPages[answers.findIndex((answer) => answer.success)];
    phone.close();
    expect(await watcher.next('video_ended')).toEqual({ room, channelId, streamId, reason: 'left' });
    await watcher.flush();
    expect(watcher.all('video_ended')).toHaveLength(1);
    expect(await liveIn(two, dana.token)).toEqual([]);
    expect(await streamsInRedis(one)).toBe(0);
  });

  it('ends the stream of an instance that is gone', async () => {
    const { one, mia, dana, room } = await arrange();
    const three = await cluster.start();
    const desk = await open(cluster.urls[0], dana);
    const { streamId } = await shareFrom(cluster.urls[2], mia, room);
    await desk.next('video_started');
    // Its instance stops: its pages go without ending it, and it leaves the live instances.
    await three.fastify.close();
    expect(await liveIn(one, dana.token)).toEqual([streamId]);
    // Missing at one sweep is not enough (a registry a moment behind); at two in a row it is.
    await one.videos.sweepGone();
    await desk.flush();
    expect(desk.all('video_ended')).toEqual([]);
    expect(await liveIn(one, dana.token)).toEqual([streamId]);
    await one.videos.sweepGone();
    expect(await desk.next('video_ended')).toMatchObject({ streamId, reason: 'closed' });
    expect(await liveIn(one, dana.token)).toEqual([]);
    const row = await one.services.videos.byStream(streamId);
    expect(row?.ended_at).toEqual(expect.any(String));
  });
});
