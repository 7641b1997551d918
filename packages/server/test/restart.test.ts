/**
 * Never drop out (issue 12): a real server process is stopped (SIGTERM, as a deploy does, or SIGKILL, as a
 * crash does) and started again on the same port and data; Socket.IO clients that behave like the web
 * app (reconnect with back-off, join their room again on every connection, fetch the chat after the last
 * message they saw) are back in their rooms, and nothing said meanwhile is lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { post, type ServerProcess, startServer, stopServer } from './process-harness.ts';

/** A room client as the web app is one: it rejoins its room on every (re)connection. */
class RoomClient {
  readonly socket: Socket;
  joins = 0;
  lastMessageId = 0;
  constructor(base: string, token: string, room: string) {
    this.socket = io(base, {
      query: { token },
      transports: ['websocket'],
      reconnectionDelay: 200,
      reconnectionDelayMax: 1000,
      forceNew: true,
    });
    this.socket.on('connect', () => this.socket.emit('join_room', { room }));
    this.socket.on('all_users', () => {
      this.joins += 1;
    });
    this.socket.on('onSendMessage', (message: { id: number }) => {
      this.lastMessageId = Math.max(this.lastMessageId, message.id);
    });
  }
}

/** Waits for a state, with a generous bound: these machines may be busy. */
async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('a server restart under connected rooms', () => {
  const dirs: string[] = [];
  const servers: ServerProcess[] = [];
  const clients: RoomClient[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.socket.disconnect();
    for (const server of servers.splice(0)) server.child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it.each(['SIGTERM', 'SIGKILL'] as const)(
    'after %s the clients come back to their room by themselves and catch up on the chat',
    async (signal) => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-restart-'));
      dirs.push(dataDir);
      const env = { DATA_DIR: dataDir, ADMIN_LOGIN: 'boss@example.org', ADMIN_PASSWORD: 'boss-password-1' };
      const first = await startServer(env);
      servers.push(first);
      const { base } = first;
      const token = (
        await post(base, '/user/api/login', { user_email: 'boss@example.org', user_password: 'boss-password-1' })
      ).body.user.authToken as string;
      const channel = (await post(base, '/user/api/createChannel', { channelName: 'Night Shift' }, token)).body.res;

      const talker = new RoomClient(base, token, channel.rtcSession);
      const listener = new RoomClient(base, token, channel.rtcSession);
      clients.push(talker, listener);
      await until(() => talker.joins >= 1 && listener.joins >= 1, 'both clients joined');
      const before = await post(
        base,
        '/user/api/sendMessageToChannel',
        { channelId: channel.id, message: 'one' },
        token,
      );
      await until(() => listener.lastMessageId === before.body.res.id, 'the first message arrived live');

      await stopServer(first, signal);
      await until(
        () => !talker.socket.connected && !listener.socket.connected,
        'the clients saw the server go',
        60_000,
      );
      expect(talker.socket.active).toBe(true);
      expect(listener.socket.active).toBe(true);

      // The old process is gone: every join from now on is on the new one.
      const talkerJoins = talker.joins;
      const second = await startServer(env, first.port);
      servers.push(second);
      // The listener is still away when this is said: it must find it after its reconnection.
      listener.socket.io.reconnection(false);
      listener.socket.disconnect();
      const listenerJoins = listener.joins;
      const missed = await post(
        base,
        '/user/api/sendMessageToChannel',
        { channelId: channel.id, message: 'two' },
        token,
      );
      expect(missed.status).toBe(200);
      listener.socket.io.reconnection(true);
      listener.socket.connect();

      await until(
        () => talker.joins > talkerJoins && listener.joins > listenerJoins,
        'both clients joined their room again on the new server',
        60_000,
      );
      const caughtUp = await post(
        base,
        '/user/api/getchannelmessagelistForAdmin',
        { channelId: channel.id, afterId: listener.lastMessageId },
        token,
      );
      expect(caughtUp.body.discussion.map((m: { textMsg: string }) => m.textMsg)).toEqual(['two']);
      expect(caughtUp.body.hasMore).toBe(false);

      // Back in the same room: a message now reaches both live again.
      const after = await post(
        base,
        '/user/api/sendMessageToChannel',
        { channelId: channel.id, message: 'three' },
        token,
      );
      await until(
        () => talker.lastMessageId === after.body.res.id && listener.lastMessageId === after.body.res.id,
        'the next message arrived live in both',
        60_000,
      );
    },
    90_000,
  );
});
