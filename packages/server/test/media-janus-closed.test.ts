/**
 * Janus closed (issue 35): against Debian's Janus with the shipped configuration (api_secret and the plugins'
 * admin_key set, janus-harness.ts), the rooms and mountpoints the app makes (rooms.ts, through the app's own
 * backends) have a secret and a pin; without them Janus refuses to destroy, forward, join or watch, and
 * without the API secret it opens no session at all. The mountpoint listens on 127.0.0.1 only: RTP sent to
 * its port from this machine's network address is never received, while the forwarders inside Janus feed it.
 */
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/config.ts';
import { memoryAssignments } from '../src/janus/assignments.ts';
import { AUDIOBRIDGE, type JanusBackends, janusBackends, STREAMING, VIDEOROOM } from '../src/janus/backends.ts';
import { JanusConnection, type JanusHandle, JanusPluginError, JanusSession } from '../src/janus/connection.ts';
import { janusKeys } from '../src/janus/secrets.ts';
import { hostAddress } from '../src/ops/dev-media.ts';
import { janusFeed } from '../src/realtime/media/janus/feed.ts';
import { type JanusRooms, janusRooms } from '../src/realtime/media/janus/rooms.ts';
import { TEST_JANUS_SECRET, type TestJanus, testJanus } from './janus-harness.ts';
import { eventually } from './realtime-harness.ts';

const silent = { info() {}, warn() {}, error() {}, debug() {}, child: () => silent } as never;
const keys = janusKeys(TEST_JANUS_SECRET);

/** A session of the test's own on this Janus (with or without the API secret). */
async function connect(url: string, apiSecret?: string): Promise<JanusConnection> {
  let connection!: JanusConnection;
  await new Promise<void>((resolve) => {
    connection = new JanusConnection({ url, apiSecret, log: silent, onUp: resolve, onDown() {} });
    connection.start();
  });
  return connection;
}

/** What Janus answered: the plugin's error code, or 'ok'. */
async function outcome(request: Promise<unknown>): Promise<number | 'ok'> {
  try {
    await request;
    return 'ok';
  } catch (error) {
    if (error instanceof JanusPluginError) return error.code;
    throw error;
  }
}

/** The local addresses UDP sockets are bound to on this port (/proc/net/udp, as `ss -ulpn` shows them). */
function udpBindings(port: number): string[] {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/udp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/)[1])
    .filter((local) => local?.endsWith(`:${hex}`))
    .map((local) => {
      const address = local.split(':')[0];
      return [3, 2, 1, 0].map((byte) => Number.parseInt(address.slice(byte * 2, byte * 2 + 2), 16)).join('.');
    });
}

/** An RTP packet of Opus (payload type 100), 20 ms of a made-up stream. */
function rtp(sequence: number, ssrc: number): Buffer {
  const packet = Buffer.alloc(12 + 40, 0x55);
  packet.writeUInt8(0x80, 0);
  packet.writeUInt8(100, 1);
  packet.writeUInt16BE(sequence & 0xffff, 2);
  packet.writeUInt32BE((sequence * 960) >>> 0, 4);
  packet.writeUInt32BE(ssrc, 8);
  return packet;
}

describe('Janus closed to whoever lacks the secrets', () => {
  let janus: TestJanus;
  let backends: JanusBackends;
  let rooms: JanusRooms;
  let probe: JanusConnection;
  let audiobridge: JanusHandle;
  let streaming: JanusHandle;
  let videoroom: JanusHandle;
  const channelId = 4242;

  beforeAll(async () => {
    janus = await testJanus();
    backends = janusBackends({
      urls: [janus.url],
      apiSecret: TEST_JANUS_SECRET,
      log: silent,
      onUp() {},
      onDown() {},
    });
    await backends.ready();
    rooms = janusRooms({ store: memoryAssignments(), log: silent, keys });
    // Every room the app makes for a channel: its talkers' VideoRoom, its mountpoint, its mixer.
    await rooms.sfu(backends.all[0], channelId);
    await rooms.mountpoint(backends.all[0], channelId);
    await rooms.bridge(backends.all[0], channelId);
    probe = await connect(janus.url, TEST_JANUS_SECRET);
    const session = await JanusSession.create(probe);
    audiobridge = await session.attach(AUDIOBRIDGE);
    streaming = await session.attach(STREAMING);
    videoroom = await session.attach(VIDEOROOM);
  });
  afterAll(async () => {
    await probe?.stop();
    await backends?.stop();
    await janus?.stop();
  });

  it('opens no session without the API secret', async () => {
    const stranger = await connect(janus.url);
    try {
      await expect(JanusSession.create(stranger)).rejects.toThrow(/secret|Unauthorized/i);
    } finally {
      await stranger.stop();
    }
  });

  it("refuses, even with the API secret, what the room's secret, pin or admin key guards", async () => {
    const secret = keys.roomSecret(channelId);
    // AudioBridge: 483 missing, 484 invalid element, 489 unauthorized (janus_audiobridge.c).
    expect(await outcome(audiobridge.message({ request: 'destroy', room: channelId }))).toBe(483);
    expect(await outcome(audiobridge.message({ request: 'destroy', room: channelId, secret: 'guess' }))).toBe(489);
    const forward = { request: 'rtp_forward', room: channelId, host: '203.0.113.9', port: 5004, ptype: 100 };
    expect(await outcome(audiobridge.message(forward))).toBe(483);
    expect(await outcome(audiobridge.message({ ...forward, secret }))).toBe(483);
    expect(await outcome(audiobridge.message({ ...forward, admin_key: TEST_JANUS_SECRET }))).toBe(483);
    expect(await outcome(audiobridge.message({ request: 'listforwarders', room: channelId }))).toBe(483);
    expect(await outcome(audiobridge.message({ request: 'create', room: 99_999 }))).toBe(483);
    expect(await outcome(audiobridge.message({ request: 'create', room: 99_999, admin_key: 'guess' }))).toBe(489);
    // Joining needs the pin: a handle of its own, since a joined handle stays in the room.
    const session = await JanusSession.create(probe);
    const joiner = await session.attach(AUDIOBRIDGE);
    expect(await outcome(joiner.message({ request: 'join', room: channelId, muted: false }))).toBe(483);
    // Streaming: 453 missing, 457 unauthorized.
    expect(await outcome(streaming.message({ request: 'destroy', id: channelId }))).toBe(453);
    expect(await outcome(streaming.message({ request: 'create', type: 'rtp', id: 99_999, media: [] }))).toBe(453);
    const watcher = await session.attach(STREAMING);
    expect(await outcome(watcher.message({ request: 'watch', id: channelId }))).toBe(453);
    expect(await outcome(watcher.message({ request: 'watch', id: channelId, pin: 'guess' }))).toBe(457);
    // VideoRoom: 429 missing element, 433 unauthorized (janus_videoroom.c): no forward of a talker, no recording,
    // no room, no join without what guards them.
    const forwardTalker = {
      request: 'rtp_forward',
      room: channelId,
      publisher_id: 1,
      host: '203.0.113.9',
      streams: [{ mid: '0', port: 5004 }],
    };
    expect(await outcome(videoroom.message(forwardTalker))).toBe(429);
    expect(await outcome(videoroom.message({ ...forwardTalker, admin_key: 'guess' }))).toBe(433);
    expect(await outcome(videoroom.message({ ...forwardTalker, admin_key: TEST_JANUS_SECRET }))).toBe(429);
    expect(await outcome(videoroom.message({ request: 'destroy', room: channelId, secret: 'guess' }))).toBe(433);
    expect(await outcome(videoroom.message({ request: 'create', room: 99_999 }))).toBe(429);
    const publisher = await session.attach(VIDEOROOM);
    expect(await outcome(publisher.message({ request: 'join', ptype: 'publisher', room: channelId }))).toBe(429);
    expect(
      await outcome(publisher.message({ request: 'join', ptype: 'publisher', room: channelId, pin: 'guess' })),
    ).toBe(433);
    // Still there.
    expect((await audiobridge.message({ request: 'exists', room: channelId })).data.exists).toBe(true);
    expect((await videoroom.message({ request: 'exists', room: channelId })).data.exists).toBe(true);
  });

  it('hears RTP sent to the mountpoint from the network never, and the forwarders inside Janus always', async () => {
    const secret = keys.roomSecret(channelId);
    const info = async () =>
      (await streaming.message({ request: 'info', id: channelId, secret })).data.info as {
        media: Array<{ port: number; age_ms?: number }>;
      };
    const { port } = (await info()).media[0];
    expect(port).toBeGreaterThan(0);
    // The mountpoint's port is bound to 127.0.0.1 alone; only forwarders inside Janus send there.
    expect(udpBindings(port)).toEqual(['127.0.0.1']);

    // A second of RTP from this machine's network address to its port (what the Internet could send): nothing
    // is forwarded to the mountpoint now, so any packet received would show in age_ms.
    const outside = hostAddress();
    expect(outside).not.toBe('127.0.0.1');
    const sender = createSocket('udp4');
    await new Promise<void>((resolve) => sender.bind(0, outside, resolve));
    try {
      const started = Date.now();
      for (let sequence = 0; Date.now() - started < 1000; sequence += 1) {
        sender.send(rtp(sequence, 0x0bad0bad), port, outside);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      sender.close();
    }
    const heard = (await info()).media[0].age_ms;
    expect(heard === undefined || heard >= 1000).toBe(true);

    // The mixer's forwarder (a patch mixes) feeds the mountpoint every 20 ms from 127.0.0.1, once someone is in
    // the mixer (a relay participant).
    await rooms.relays(backends.all[0], channelId, 1);
    const feed = janusFeed({ rooms, keys, store: memoryAssignments(), log: silent, patched: () => true });
    await feed.apply(backends.all[0], channelId);
    const forwarders = (await audiobridge.message({ request: 'listforwarders', room: channelId, secret })).data
      .rtp_forwarders as Array<{ ip: string; port: number }>;
    expect(forwarders.map(({ ip, port: to }) => `${ip}:${to}`)).toEqual([`127.0.0.1:${port}`]);
    await eventually(async () => ((await info()).media[0].age_ms ?? 1e9) < 200, 'the forwarder feeds the mountpoint');
  });
});

describe('JANUS_API_SECRET', () => {
  const secret = 'a'.repeat(64);
  it('is required when a JANUS_URL names another host, and optional for this one', () => {
    expect(() => loadConfig({ JANUS_URL: 'ws://10.0.0.5:8188' })).toThrow(
      'JANUS_API_SECRET is required when JANUS_URL names another host (ws://10.0.0.5:8188)',
    );
    expect(() => loadConfig({ JANUS_URL: 'ws://127.0.0.1:8188,wss://janus.example.org' })).toThrow(ConfigError);
    expect(loadConfig({ JANUS_URL: 'wss://janus.example.org', JANUS_API_SECRET: secret }).janusApiSecret).toBe(secret);
    for (const url of ['ws://127.0.0.1:8188', 'ws://localhost:8188', 'ws://[::1]:8188'])
      expect(loadConfig({ JANUS_URL: url }).janusApiSecret).toBeUndefined();
  });

  it('is refused when shorter than 32 characters or a placeholder, naming it', () => {
    for (const weak of ['change-me', 'short-secret', `change-me-${'x'.repeat(40)}`])
      expect(() => loadConfig({ JANUS_URL: 'ws://127.0.0.1:8188', JANUS_API_SECRET: weak })).toThrow(
        /JANUS_API_SECRET must be a random secret of at least 32 characters/,
      );
  });

  it('signs TURN credentials for a day at most, an hour by default', () => {
    expect(loadConfig({}).turnTtlMs).toBe(3600_000);
    expect(loadConfig({ TURN_TTL_SECONDS: '86400' }).turnTtlMs).toBe(86_400_000);
    expect(() => loadConfig({ TURN_TTL_SECONDS: '86401' })).toThrow(/TURN_TTL_SECONDS must be at most 86400/);
    expect(() => loadConfig({ TURN_SECRET: 'x'.repeat(31) })).toThrow(/TURN_SECRET must be a random secret/);
  });
});
