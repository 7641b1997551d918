/**
 * Faults (issue 29): a client that stops reading. A raw WebSocket joins a room through Socket.IO's protocol,
 * then stops reading its TCP socket while chat messages are pushed to the room. The server's backlog for it
 * stays bounded (MAX_SOCKET_BUFFER_BYTES) and it is disconnected past it, while another client of the room
 * gets every message, promptly.
 */
import type { Socket as NetSocket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ChannelSummary } from '../src/channels/store.ts';
import { backlogBytes, type EngineConnection } from '../src/realtime/slow-clients.ts';
import { type Account, createMember, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, eventually, listen, type TestClient } from './realtime-harness.ts';

const LIMIT = 512 * 1024;

/** A Socket.IO client spoken by hand over `ws`, so that the test can stop it reading. */
async function rawClient(url: string, token: string) {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket&token=${token}`);
  const frames: string[] = [];
  const waiters: Array<() => void> = [];
  ws.on('message', (data) => {
    frames.push(String(data));
    for (const wake of waiters.splice(0)) wake();
  });
  let closed = false;
  ws.on('close', () => {
    closed = true;
    for (const wake of waiters.splice(0)) wake();
  });
  ws.on('error', () => {});
  const frame = async (prefix: string) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const found = frames.find((f) => f.startsWith(prefix));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no frame starting with ${prefix} (got ${frames.join(' | ')})`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  await frame('0{'); // Engine.IO open
  ws.send('40'); // Socket.IO connect to the main namespace
  const connected = JSON.parse((await frame('40{')).slice(2)) as { sid: string };
  return {
    sid: connected.sid,
    frame,
    join(room: string) {
      ws.send(`42${JSON.stringify(['join_room', { room, name: '' }])}`);
      return frame('42["all_users"');
    },
    /** Stops reading: the kernel's buffers fill, then the server's. */
    stopReading() {
      (ws as unknown as { _socket: NetSocket })._socket.pause();
    },
    resume() {
      (ws as unknown as { _socket: NetSocket })._socket.resume();
    },
    get closed() {
      return closed;
    },
    close() {
      ws.terminate();
    },
  };
}

describe('a client that stops reading', () => {
  let app: TestApp;
  let url: string;
  let admin: Account;
  let alice: Account;
  let bob: Account;
  let carol: Account;
  let red: ChannelSummary;
  const cleanups: Array<() => void> = [];

  beforeEach(async () => {
    app = await startApp('sqlite', { maxSocketBufferBytes: LIMIT, chatMessagesPerMinute: 1_000_000 });
    url = await listen(app);
    admin = await signUpAdmin(app);
    alice = await createMember(app, admin, { firstName: 'Alice' });
    bob = await createMember(app, admin, { firstName: 'Bob' });
    carol = await createMember(app, admin, { firstName: 'Carol' });
    red = await app.services.channels.create('Red');
    await app.services.memberships.add(red.id, [alice.id, bob.id, carol.id]);
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) cleanup();
    await app.close();
  });

  const joined = async (account: Account): Promise<TestClient> => {
    const client = await connect(url, account.token);
    cleanups.push(() => client.close());
    client.socket.emit('join_room', { room: red.rtcSession, name: '' });
    await client.next('all_users');
    return client;
  };

  it('is disconnected once its backlog passes the limit, while the room keeps getting every message', async () => {
    const stuck = await rawClient(url, bob.token);
    cleanups.push(() => stuck.close());
    await stuck.join(red.rtcSession);
    const reader = await joined(carol);
    stuck.stopReading();

    // The server's backlog for the stuck client, read all along.
    let largest = 0;
    const sample = setInterval(() => {
      const socket = app.io.of('/').sockets.get(stuck.sid);
      if (socket) largest = Math.max(largest, backlogBytes(socket.conn as unknown as EngineConnection));
    }, 5);
    cleanups.push(() => clearInterval(sample));

    const text = 'x'.repeat(3900);
    const sentAt = new Map<string, number>();
    let lag = 0;
    reader.socket.on('messageResponse', (message: { textMsg: string }) => {
      const at = sentAt.get(message.textMsg);
      if (at !== undefined) lag = Math.max(lag, performance.now() - at);
    });
    let count = 0;
    // Until the server cuts the stuck client (a few MB of pushes fill the kernel's buffers first), then a few more.
    while (app.io.of('/').sockets.has(stuck.sid) && count < 3000) {
      const message = `${count++} ${text}`;
      sentAt.set(message, performance.now());
      expect(
        (await app.call('/user/api/sendMessageToChannel', { channelId: red.id, message }, alice.token)).status,
      ).toBe(200);
    }
    for (let i = 0; i < 20; i++) {
      const message = `${count++} ${text}`;
      sentAt.set(message, performance.now());
      expect(
        (await app.call('/user/api/sendMessageToChannel', { channelId: red.id, message }, alice.token)).status,
      ).toBe(200);
    }
    clearInterval(sample);

    expect(app.io.of('/').sockets.has(stuck.sid)).toBe(false);
    // Bounded: the limit, and at most the packet that crossed it (a message and its spec twin, ~8 kB each).
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThanOrEqual(LIMIT + 32 * 1024);
    // Its presence is gone with it.
    await eventually(
      async () =>
        !(await app.services.db
          .selectFrom('user_sockets')
          .select('socket_id')
          .where('socket_id', '=', stuck.sid)
          .executeTakeFirst()),
      'the stuck socket leaves presence',
    );

    // The other reader got every message, in order, none held back by the stuck one.
    await eventually(async () => reader.all('messageResponse').length >= count, 'every message at the reader');
    expect(reader.all('messageResponse').map((m: { textMsg: string }) => Number(m.textMsg.split(' ')[0]))).toEqual(
      Array.from({ length: count }, (_, i) => i),
    );
    expect(lag).toBeLessThan(5000);

    // Reading again, the stuck client finds its connection closed (its page then reconnects by itself).
    stuck.resume();
    await eventually(async () => stuck.closed, 'the stuck client sees its connection closed');
  });
});
