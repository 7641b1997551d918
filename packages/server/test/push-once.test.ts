/**
 * One push per change for clients that ask for it (`pushes=once` in the handshake), the spec's twin events for
 * the others, in the same room at the same time.
 */
import { io } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelSummary } from '../src/channels/store.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { listen, TestClient } from './realtime-harness.ts';

describe.each(databases)('pushes once on %s', (dialect) => {
  let app: TestApp;
  let url: string;
  let admin: Account;
  let alice: Account;
  let bob: Account;
  let red: ChannelSummary;
  const clients: TestClient[] = [];

  async function open(account: Account, once: boolean): Promise<TestClient> {
    const socket = io(url, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      query: once ? { token: account.token, pushes: 'once' } : { token: account.token },
    });
    const client = new TestClient(socket);
    clients.push(client);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return client;
  }

  async function joined(account: Account, once: boolean): Promise<TestClient> {
    const client = await open(account, once);
    client.socket.emit('join_room', { room: red.rtcSession });
    await client.next('all_users');
    return client;
  }

  beforeEach(async () => {
    app = await startApp(dialect);
    url = await listen(app);
    admin = await signUpAdmin(app);
    alice = await createMember(app, admin, { firstName: 'Alice', lastName: 'Martin' });
    bob = await createMember(app, admin, { firstName: 'Bob', lastName: 'Durand' });
    red = await app.services.channels.create('Red Team');
    await app.services.memberships.add(red.id, [alice.id, bob.id]);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.close();
  });

  it('gives the peer list once, a chat message once, to a client that asked; twice to the others', async () => {
    const old = await joined(alice, false);
    const once = await joined(bob, true);
    await once.flush();
    expect(once.all('all_users')).toHaveLength(1);
    expect(once.all('usersInThisRoom')).toEqual([]);
    expect(old.all('usersInThisRoom')).toHaveLength(1);
    expect(await old.next('user joined')).toMatchObject({ id: once.id, userId: bob.id });

    old.socket.emit('message', { channelId: red.id, message: 'hello both' });
    const message = await once.next('onSendMessage');
    expect(message).toMatchObject({ textMsg: 'hello both', userId: alice.id });
    expect(await old.next('messageResponse')).toEqual(message);
    expect(await old.next('onSendMessage')).toEqual(message);
    await once.flush();
    expect(once.all('messageResponse')).toEqual([]);
  });

  it('gathers presence changes in one onUserStatusesChanged for a client that asked', async () => {
    const consoleOnce = await open(admin, true);
    const consoleOld = await open(admin, false);
    await joined(alice, false);
    await joined(bob, true);
    const gathered = new Map<number, { online: boolean; channelIds: number[] }>();
    const cameOnline = new Set<number>();
    let redConnected = 0;
    // The statuses arrive gathered (as many times as the server flushed): the latest one per user wins.
    while (
      !(gathered.get(alice.id)?.channelIds.includes(red.id) && gathered.get(bob.id)?.channelIds.includes(red.id))
    ) {
      const batch = await consoleOnce.next('onUserStatusesChanged');
      for (const status of batch.statuses) gathered.set(status.userId, status);
      for (const userId of batch.cameOnline) cameOnline.add(userId);
      // With the connected counts a console patches its channel list with.
      for (const count of batch.connected) if (count.channelId === red.id) redConnected = count.connected;
    }
    expect([...cameOnline]).toEqual(expect.arrayContaining([alice.id, bob.id]));
    expect(redConnected).toBe(2);
    const list = await app.call('/user/api/getAllChannels', {}, admin.token);
    expect(list.body.res.find((c: { id: number }) => c.id === red.id).connected).toBe(redConnected);
    expect(
      await consoleOld.next('onUserStatusChanged', (s) => s.userId === bob.id && s.channelIds.includes(red.id)),
    ).toMatchObject({ online: true });
    expect(await consoleOld.next('userConnected', (s) => s.userId === alice.id)).toMatchObject({ online: true });
    await consoleOnce.flush();
    expect(consoleOnce.all('onUserStatusChanged')).toEqual([]);
    expect(consoleOnce.all('userConnected')).toEqual([]);
    expect(consoleOld.all('onUserStatusesChanged')).toEqual([]);
  });
});
