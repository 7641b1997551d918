/**
 * Faults (issues 29 and 36): Redis restarted under two app instances with clients in a room. A redis-server of
 * the test's own is killed and started again on the same port, empty. The clients never notice: their
 * connections stay open, they stay in the room and present, the floor's holder keeps it (a press meanwhile is
 * refused), two presses after a release still give exactly one grant, and no chat message is lost: each
 * client is told to fetch what it may have missed (`resync`) and does, as the web app does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { io, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChannelSummary } from '../src/channels/store.ts';
import { connectRedis, heardPublisher } from '../src/realtime/redis.ts';
import { startCluster } from './cluster-harness.ts';
import { type Account, createMember, databases, signUpAdmin, type TestApp } from './harness.ts';
import { eventually } from './realtime-harness.ts';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Does a Redis answer PING on this port? */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(1000, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => {
      resolve(String(data).startsWith('+PONG'));
      socket.destroy();
    });
    socket.on('error', () => resolve(false));
    socket.on('close', () => resolve(false));
  });
}

/** A redis-server of this test only, nothing kept on disk: a restart starts it empty. */
function redisServer(port: number) {
  let child: ChildProcess | undefined;
  return {
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {
          stdio: 'ignore',
        },
      );
      await eventually(() => pong(port), `redis-server on port ${port}`);
    },
    async kill() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
  };
}

interface Page {
  socket: Socket;
  /** Chat messages this page shows, by id. */
  messages: Map<number, string>;
  connects: number;
  resyncs: number;
  floor: Array<{ event: string; payload: any }>;
}

describe('Redis restarted under two instances', () => {
  const dialect = databases[databases.length - 1];
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('keeps every client connected, in its room and holding its floor, with one grant per press and no message lost', async () => {
    const port = await freePort();
    const redis = redisServer(port);
    await redis.start();
    cleanups.push(() => redis.kill());
    const redisUrl = `redis://127.0.0.1:${port}`;
    const cluster = await startCluster(dialect, { redisUrl });
    cleanups.push(() => cluster.close());
    const [one, two] = cluster.apps;
    const [urlOne, urlTwo] = cluster.urls;
    const admin = await signUpAdmin(one);
    const alice = await createMember(one, admin, { firstName: 'Alice' });
    const bob = await createMember(one, admin, { firstName: 'Bob' });
    const channel: ChannelSummary = await one.services.channels.create('Relay');
    await one.services.memberships.add(channel.id, [alice.id, bob.id]);
    const room = channel.rtcSession;

    /** A page the way the web app keeps one: it comes back by itself, rejoins, and fetches what it missed. */
    const fetchMissed = (page: Page, app: TestApp, account: Account) =>
      void app
        .call('/user/api/getchannelmessagelistForAdmin', { channelId: channel.id, limit: 100 }, account.token)
        .then(({ body }) => {
          for (const message of body.discussion ?? []) page.messages.set(message.id, message.textMsg);
        });
    const open = (url: string, app: TestApp, account: Account): Page => {
      const socket = io(url, {
        transports: ['websocket'],
        forceNew: true,
        query: { token: account.token },
        reconnectionDelay: 100,
        reconnectionDelayMax: 500,
      });
      const page: Page = { socket, messages: new Map(), connects: 0, resyncs: 0, floor: [] };
      socket.on('connect', () => {
        page.connects += 1;
        socket.emit('join_room', { room, name: '' });
      });
      // Once back in the room (its peer list came), what was sent meanwhile is fetched, as the web app does.
      socket.on('all_users', () => {
        if (page.connects >= 2) fetchMissed(page, app, account);
      });
      // The server's link to the other instances came back: pushes may have been lost meanwhile.
      socket.on('resync', (payload: { reason: string }) => {
        expect(payload).toEqual({ reason: 'redis' });
        page.resyncs += 1;
        fetchMissed(page, app, account);
      });
      socket.on('messageResponse', (message: { id: number; textMsg: string }) =>
        page.messages.set(message.id, message.textMsg),
      );
      for (const event of ['floor_taken', 'floor_idle'])
        socket.on(event, (payload: unknown) => page.floor.push({ event, payload }));
      cleanups.push(() => {
        socket.disconnect();
      });
      return page;
    };
    const a = open(urlOne, one, alice);
    const b = open(urlTwo, two, bob);
    const presence = async () =>
      (await one.services.db.selectFrom('user_sockets').select(['socket_id', 'channel_id']).execute())
        .filter((row) => row.channel_id === channel.id)
        .map((row) => row.socket_id)
        .sort();
    const bothPresent = async () => {
      const rows = await presence();
      return a.socket.connected && b.socket.connected && rows.length === 2 && rows.includes(a.socket.id as string)
        ? rows.includes(b.socket.id as string)
        : false;
    };
    await eventually(bothPresent, 'both pages in the room');

    // Acknowledged chat messages, by id, from both instances.
    const acknowledged = new Map<number, string>();
    const send = async (app: TestApp, account: Account, text: string) => {
      const sent = await app.call(
        '/user/api/sendMessageToChannel',
        { channelId: channel.id, message: text },
        account.token,
      );
      expect(sent.status).toBe(200);
      acknowledged.set(sent.body.res.id, text);
    };
    await send(one, alice, 'before 1');
    await send(two, bob, 'before 2');
    await eventually(async () => b.messages.size === 2 && a.messages.size === 2, 'messages across instances');
    // Alice holds the floor when Redis goes.
    const press = (page: Page) =>
      page.socket.timeout(15_000).emitWithAck('floor_request', { room }) as Promise<{ granted: boolean }>;
    expect(await press(a)).toEqual({ granted: true, grantId: expect.any(String) });
    await eventually(async () => b.floor.some((f) => f.event === 'floor_taken'), 'bob hears that alice talks');
    const connectsBefore = [a.connects, b.connects];

    await redis.kill();
    // Not ready while Redis is away (a load balancer sends new clients elsewhere), ready again after.
    await eventually(
      async () => (await one.fastify.inject({ method: 'GET', url: '/readyz' })).statusCode === 503,
      '/readyz says Redis is away',
    );
    // Sent while Redis is away: each waits for it (the chat limit is counted there) and is acknowledged after.
    const duringOutage = [send(one, alice, 'during 1'), send(two, bob, 'during 2')];
    await redis.start();
    await Promise.all(duringOutage);
    await eventually(
      async () => (await one.fastify.inject({ method: 'GET', url: '/readyz' })).statusCode === 200,
      '/readyz ready again',
    );
    await send(one, alice, 'after 1');
    await send(two, bob, 'after 2');

    // Each page was told to fetch what it missed, and never lost its connection.
    await eventually(async () => a.resyncs > 0 && b.resyncs > 0, 'both pages told to fetch what they missed');
    expect([a.connects, b.connects]).toEqual(connectsBefore);
    expect(a.socket.connected && b.socket.connected).toBe(true);
    expect(await bothPresent()).toBe(true);
    // No acknowledged message is missing from either page.
    const missing = (page: Page) => [...acknowledged.keys()].filter((id) => !page.messages.has(id));
    await eventually(async () => missing(a).length === 0 && missing(b).length === 0, 'every message on both pages');
    expect(acknowledged.size).toBe(6);

    // Live pushes cross instances again.
    await send(one, alice, 'live after');
    await eventually(async () => missing(b).length === 0, 'a new message reaches the other instance');

    // The floor: Alice still holds it (written again into the empty Redis), so Bob's press is refused.
    expect(await press(b)).toMatchObject({ granted: false });
    const idleBefore = b.floor.filter((f) => f.event === 'floor_idle').length;
    a.socket.emit('floor_release', { room });
    await eventually(async () => b.floor.filter((f) => f.event === 'floor_idle').length > idleBefore, 'idle');
    // Two presses at once give one grant.
    let answers = await eventually(async () => {
      const both = await Promise.all([press(a), press(b)]);
      return both.filter((answer) => answer.granted).length === 1 ? both : false;
    }, 'one grant for two presses');
    for (let round = 0; round < 3; round += 1) {
      const holder = answers[0]?.granted ? a : b;
      const other = holder === a ? b : a;
      const idleBefore = other.floor.filter((f) => f.event === 'floor_idle').length;
      holder.socket.emit('floor_release', { room });
      await eventually(async () => other.floor.filter((f) => f.event === 'floor_idle').length > idleBefore, 'idle');
      answers = await Promise.all([press(a), press(b)]);
      expect(answers.filter((answer) => answer.granted)).toHaveLength(1);
    }
  });

  it('logs a broadcast that Redis never answered instead of ending the process', async () => {
    const port = await freePort();
    const redis = redisServer(port);
    await redis.start();
    cleanups.push(() => redis.kill());
    const warnings: string[] = [];
    const log = { warn: (_: unknown, message: string) => warnings.push(message) } as unknown as FastifyBaseLogger;
    const pair = await connectRedis(`redis://127.0.0.1:${port}`, log);
    cleanups.push(() => {
      pair.pub.destroy();
      pair.sub.destroy();
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    cleanups.push(() => {
      process.off('unhandledRejection', onUnhandled);
    });
    // The adapter's way: publish and never wait. Broadcasts are in flight when Redis goes.
    const publisher = heardPublisher(pair.pub, log);
    const flood = setInterval(() => {
      for (let i = 0; i < 50; i += 1) publisher.publish('talkgroup-test', 'x'.repeat(1000));
    }, 1);
    cleanups.push(() => clearInterval(flood));
    await eventually(async () => pair.pub.isReady, 'publishing');
    await redis.kill();
    const lost = 'a broadcast to the other instances was lost';
    await eventually(async () => warnings.includes(lost), 'a lost broadcast logged');
    clearInterval(flood);
    // Still a client of node-redis: the rest of its methods work through the wrapper.
    expect(typeof publisher.isOpen).toBe('boolean');
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
  });
});
