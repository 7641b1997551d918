/**
 * Channels through a real Janus (Debian's package, started by each test on ports of its own): rooms made on
 * demand and destroyed when empty, every participant muted until the floor is theirs, listeners on the
 * channel's mix, takes recorded by the server, and the way back after Janus dies. The pages are real
 * RTCPeerConnections in headless Chromium; what a listener hears is read from its spectrum.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JanusConnection, JanusSession } from '../src/janus/connection.ts';
import { createMember, databases } from './harness.ts';
import { janusInspector, type TestJanus, testJanus } from './janus-harness.ts';
import { launchMediaBrowser, type MediaPage, mediaPage } from './media-browser.ts';
import { connectMedia, hears, joinMedia, MEDIA_WAIT, press, release, silent } from './media-world.ts';
import { connect, eventually } from './realtime-harness.ts';
import { realtimeWorld } from './realtime-world.ts';

const ALICE = 500;
const BOB = 1200;
const ADMIN = 2000;

let browser: Browser;
beforeAll(async () => {
  browser = await launchMediaBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(databases)('channels through Janus on %s', (dialect) => {
  let janus: TestJanus;
  let page: MediaPage;
  beforeEach(async () => {
    janus = await testJanus();
  });
  const world = realtimeWorld(dialect, () => ({ janusUrls: [janus.url], janusApiSecret: janus.secret }));
  beforeEach(async () => {
    page = await mediaPage(browser, world.url);
  });
  afterEach(async () => {
    await page?.close();
  });
  afterEach(async () => {
    await janus?.stop();
  });

  const join = (account: Parameters<typeof joinMedia>[2], name: string, options?: Parameters<typeof joinMedia>[5]) =>
    joinMedia(page, world.url, account, world.red, name, options, (client) => world.track(client));

  it('makes the channel rooms on the first offer, forwards nobody without the floor, and destroys them when the last leaves', async () => {
    const inspector = await janusInspector(janus.url);
    try {
      expect(await inspector.exists(world.red.id)).toBe(false);
      const alice = await join(world.alice, 'alice', { tone: ALICE });
      expect(await inspector.exists(world.red.id)).toBe(true);
      const bob = await join(world.bob, 'bob', { tone: BOB });
      const inRoom = await inspector.participants(world.red.id);
      expect(inRoom.map((participant) => participant.display).sort()).toEqual(['Alice Martin', 'Bob Durand']);
      // Every page hears the channel on its mountpoint; nobody holds the floor, so nothing is forwarded to it.
      expect((await inspector.mountpoint(world.red.id))?.viewers).toBe(2);
      expect(await inspector.forwarders(world.red.id)).toEqual([]);
      // No mixer: nothing here needs two voices at once.
      expect(await inspector.bridgeExists(world.red.id)).toBe(false);

      alice.client.socket.emit('leave_room', { room: alice.room });
      await eventually(async () => (await inspector.participants(world.red.id)).length === 1, 'alice left the room');
      expect(await inspector.exists(world.red.id)).toBe(true);
      bob.client.close();
      await eventually(async () => !(await inspector.exists(world.red.id)), 'the empty room is destroyed');
      expect(await inspector.mountpoint(world.red.id)).toBeNull();
    } finally {
      await inspector.close();
    }
  });

  it('destroys the rooms when every page leaves at once, and makes them again for the next page', async () => {
    const inspector = await janusInspector(janus.url);
    try {
      const alice = await join(world.alice, 'alice', { tone: ALICE });
      const bob = await join(world.bob, 'bob', { tone: BOB });
      expect((await inspector.mountpoint(world.red.id))?.viewers).toBe(2);
      // Both at once: each is still being let go by Janus while the other leaves.
      alice.client.close();
      bob.client.close();
      await eventually(async () => !(await inspector.exists(world.red.id)), 'the empty room is destroyed');
      expect(await inspector.mountpoint(world.red.id)).toBeNull();
      await join(world.alice, 'alice again', { tone: ALICE });
      expect(await inspector.exists(world.red.id)).toBe(true);
      expect((await inspector.mountpoint(world.red.id))?.viewers).toBe(1);
    } finally {
      await inspector.close();
    }
  });

  it("forwards the floor holder's packets as they came, one forwarder while it holds the floor and none after", async () => {
    const inspector = await janusInspector(janus.url);
    try {
      const bob = await join(world.bob, 'bob', { tone: BOB });
      await join(world.alice, 'alice');
      await press(page, bob);
      await hears(page, 'alice', BOB);
      const forwarded = await inspector.forwarders(world.red.id);
      expect(forwarded).toHaveLength(1);
      expect(forwarded[0].forwarders).toHaveLength(1);
      await release(page, bob);
      await eventually(async () => (await inspector.forwarders(world.red.id)).length === 0, 'the forward stopped');
      await silent(page, 'alice', [BOB]);
    } finally {
      await inspector.close();
    }
  });

  it('carries Opus in-band FEC on every leg: the talker is asked for it, the listeners are told the stream has it', async () => {
    const talker = world.track(await connect(world.url, world.alice.token));
    talker.socket.emit('join_room', { room: world.red.rtcSession, mode: 'talk' });
    await talker.next('all_users');
    const offer = await page.offer('alice', { tone: ALICE, sendOnly: true });
    const answered: any = await talker.socket
      .timeout(20_000)
      .emitWithAck('media_offer', { room: world.red.rtcSession, sdp: offer, leg: 'send' });
    expect(answered.success).toBe(true);
    expect(answered.sdp).toMatch(/a=fmtp:\d+ [^\r\n]*useinbandfec=1/);
    await page.answer('alice', answered.sdp);

    const listener = world.track(await connect(world.url, world.bob.token));
    listener.socket.emit('join_room', { room: world.red.rtcSession, mode: 'listen' });
    await listener.next('all_users');
    const watched: any = await listener.socket
      .timeout(20_000)
      .emitWithAck('media_watch', { room: world.red.rtcSession });
    expect(watched.success).toBe(true);
    expect(watched.sdp).toMatch(/a=fmtp:\d+ [^\r\n]*useinbandfec=1/);
    const answer = await page.answerOffer('bob', watched.sdp);
    expect(answer).toMatch(/a=fmtp:\d+ [^\r\n]*useinbandfec=1/);

    // One connection through the mixer (an older page, a spec client): its answer asks for FEC too.
    const older = world.track(await connect(world.url, world.admin.token));
    older.socket.emit('join_room', { room: world.red.rtcSession, mode: 'talk' });
    await older.next('all_users');
    const bridged: any = await older.socket
      .timeout(20_000)
      .emitWithAck('media_offer', { room: world.red.rtcSession, sdp: await page.offer('older', { tone: ADMIN }) });
    expect(bridged.success).toBe(true);
    expect(bridged.sdp).toMatch(/a=fmtp:\d+ [^\r\n]*useinbandfec=1/);
  });

  it('lets only the floor holder be heard, whatever the others send; a preemption mutes the preempted', async () => {
    const dave = await createMember(world.app, world.admin, { firstName: 'Dave', lastName: 'Listener' });
    await world.app.services.memberships.add(world.red.id, [dave.id]);
    // Alice's page ignores the floor: its track is on from the start.
    const alice = await join(world.alice, 'alice', { tone: ALICE, enabled: true });
    const bob = await join(world.bob, 'bob', { tone: BOB });
    const listener = await join(dave, 'dave');
    const admin = await join(world.admin, 'admin', { tone: ADMIN });

    await press(page, bob);
    await hears(page, 'dave', BOB, [ALICE, ADMIN]);
    // Talkers hear the channel on their receiving connection.
    await hears(page, 'admin', BOB, [ALICE]);

    // Bob's page keeps sending after its release: Janus mutes it.
    await release(page, bob, true);
    await silent(page, 'dave', [BOB, ALICE]);

    await press(page, alice);
    await hears(page, 'dave', ALICE, [BOB, ADMIN]);
    // An administrator breaks in: Alice keeps sending but is muted at once.
    await press(page, admin);
    await hears(page, 'dave', ADMIN, [ALICE, BOB]);
    await hears(page, 'bob', ADMIN, [ALICE]);
    expect(listener.client.all('media_reset')).toEqual([]);
  });

  it('records a take on the server and keeps it after the talker closed its page at the release', async () => {
    const bob = await join(world.bob, 'bob', { tone: BOB });
    await join(world.alice, 'alice');
    await press(page, bob);
    await hears(page, 'alice', BOB);
    // Janus writes what it receives from Bob while he holds the floor.
    const folder = world.app.config.janusRecordingsDir;
    await eventually(async () => {
      const takes = existsSync(folder) ? readdirSync(folder).filter((file) => file.endsWith('.mjr')) : [];
      return takes.some((file) => statSync(path.join(folder, file)).size > 6_000);
    }, 'Janus recorded a second of Bob');
    await release(page, bob);
    await page.hangUp('bob');
    bob.client.close();
    const kept = await eventually(async () => {
      const answer = await world.app.call(
        '/user/api/getChannelVoiceMessages',
        { channelId: world.red.id },
        world.admin.token,
      );
      return answer.body.res?.length > 0 ? answer.body.res : undefined;
    }, 'the take is in the voice history');
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ userId: world.bob.id, display_name: 'Bob Durand' });
    expect(kept[0].durationMs).toBeGreaterThan(300);
    const audio = await world.app.fastify.inject({ method: 'GET', url: kept[0].url });
    expect(audio.statusCode).toBe(200);
    expect(audio.rawPayload.subarray(0, 4).toString('latin1')).toBe('OggS');
    expect(readdirSync(folder).filter((file) => file.includes('take-'))).toEqual([]);
  });

  it('takes the voice peer to peer when Janus dies and brings it back through Janus when it is up again', async () => {
    const bob = await join(world.bob, 'bob', { tone: BOB });
    const alice = await join(world.alice, 'alice');
    await press(page, bob);
    await hears(page, 'alice', BOB);

    await janus.kill('SIGKILL');
    // No Janus left: the pages are told to go peer to peer.
    expect(await bob.client.next('media_plane', (plane) => plane.kind === 'mesh')).toEqual({
      room: world.red.rtcSession,
      kind: 'mesh',
      fallback: true,
    });
    await alice.client.next('media_plane', (plane) => plane.kind === 'mesh');

    await janus.restart();
    expect((await bob.client.next('media_plane', (plane) => plane.kind === 'server')).kind).toBe('server');
    await alice.client.next('media_plane', (plane) => plane.kind === 'server');
    // The pages offer again (as the app's transport does on media_plane) and Bob, still holding the floor,
    // is heard again through the new Janus.
    await connectMedia(page, alice);
    await connectMedia(page, bob, { tone: BOB, enabled: true });
    await hears(page, 'alice', BOB);
  }, 90_000);

  it('has a trickled candidate acknowledged by Janus at once (nothing else follows a trickle)', async () => {
    const silentLog = { info() {}, warn() {}, error() {}, debug() {} } as never;
    let connection!: JanusConnection;
    await new Promise<void>((resolve) => {
      connection = new JanusConnection({
        url: janus.url,
        apiSecret: janus.secret,
        log: silentLog,
        onUp: resolve,
        onDown() {},
      });
      connection.start();
    });
    try {
      const session = await JanusSession.create(connection);
      const handle = await session.attach('janus.plugin.audiobridge');
      // Before the fix, the acknowledgement was taken for the first half of a plugin answer and the trickle
      // waited for its timeout, holding the socket's other events behind it.
      await expect(
        handle.trickle({ candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host', sdpMid: '0' }),
      ).resolves.toBeUndefined();
      await expect(connection.request({ janus: 'keepalive', session_id: session.id }, 2_000)).resolves.toMatchObject({
        janus: 'ack',
      });
    } finally {
      await connection.stop();
    }
  });

  it('keeps a channel set to peer to peer on the mesh, and moves its pages when an administrator changes it', async () => {
    const alice = world.track(await connect(world.url, world.alice.token));
    alice.socket.emit('join_room', { room: world.red.rtcSession, mode: 'talk' });
    expect(await alice.next('media_plane')).toEqual({ room: world.red.rtcSession, kind: 'server' });
    const updated = await world.app.call(
      '/user/api/updateChannel',
      { channelId: world.red.id, channelName: world.red.name, voiceMode: 'mesh' },
      world.admin.token,
    );
    expect(updated.status).toBe(200);
    expect(updated.body.res.voiceMode).toBe('mesh');
    // Already in the channel: told to go peer to peer (not a fallback: the channel asks for it).
    expect(await alice.next('media_plane')).toEqual({ room: world.red.rtcSession, kind: 'mesh' });
    const bob = world.track(await connect(world.url, world.bob.token));
    bob.socket.emit('join_room', { room: world.red.rtcSession, mode: 'talk' });
    expect(await bob.next('media_plane')).toEqual({ room: world.red.rtcSession, kind: 'mesh' });
    const listed = await world.app.call('/user/api/getAllChannels', {}, world.admin.token);
    expect(listed.body.res.find((channel: { id: number }) => channel.id === world.red.id).voiceMode).toBe('mesh');
    // A member may not change it.
    const refused = await world.app.call(
      '/user/api/updateChannel',
      { channelId: world.red.id, channelName: world.red.name, voiceMode: 'server' },
      world.alice.token,
    );
    expect(refused.status).toBe(403);

    await world.app.call(
      '/user/api/updateChannel',
      { channelId: world.red.id, channelName: world.red.name, voiceMode: 'server' },
      world.admin.token,
    );
    expect(await alice.next('media_plane')).toEqual({ room: world.red.rtcSession, kind: 'server' });
    expect(await bob.next('media_plane')).toEqual({ room: world.red.rtcSession, kind: 'server' });
  });

  it('notices a Janus that hangs and tells its pages', async () => {
    const bob = await join(world.bob, 'bob', { tone: BOB });
    await janus.kill('SIGSTOP');
    await expect
      .poll(() => bob.client.all('media_plane').some((plane) => plane.kind === 'mesh'), MEDIA_WAIT)
      .toBe(true);
    // A page that comes meanwhile goes peer to peer at once, and learns why.
    const alice = world.track(await connect(world.url, world.alice.token));
    alice.socket.emit('join_room', { room: world.red.rtcSession, mode: 'talk' });
    expect(await alice.next('media_plane')).toEqual({ room: world.red.rtcSession, kind: 'mesh', fallback: true });
    janus.resume();
    await bob.client.next('media_plane', (plane) => plane.kind === 'server');
  });
});
