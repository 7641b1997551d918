/**
 * Issue 17 point 3: typing reaches the others at once, not behind the typist's earlier events still being
 * handled (it arrived about 2 s late behind a join's or a message's writes).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, listen, type TestClient } from './realtime-harness.ts';

describe.each(databases)('typing on %s', (dialect) => {
  let app: TestApp;
  const clients: TestClient[] = [];
  beforeEach(async () => {
    app = await startApp(dialect);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.close();
  });

  it('is relayed while an earlier event of the same socket is still being handled, and acknowledged after it', async () => {
    const url = await listen(app);
    const admin = await signUpAdmin(app);
    const alice = await createMember(app, admin, { firstName: 'Alice', lastName: 'Typist' });
    const bob = await createMember(app, admin, { firstName: 'Bob', lastName: 'Reader' });
    const red = await app.services.channels.create('Red Team');
    await app.services.memberships.add(red.id, [alice.id, bob.id]);
    const joined = async (token: string) => {
      const client = await connect(url, token);
      clients.push(client);
      client.socket.emit('join_room', { room: red.rtcSession, name: 'ignored' });
      await client.next('all_users');
      return client;
    };
    const a = await joined(alice.token);
    const b = await joined(bob.token);

    // Alice's message is held in the store until the test lets it go: her socket's queue is busy.
    const realSend = app.services.sendMessage;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    app.services.sendMessage = async (input) => {
      await held;
      return realSend(input);
    };
    a.socket.emit('message', { channelId: red.id, message: 'Hello' });
    const acknowledged = a.emitAck('typing', { room: red.rtcSession });
    expect(await b.next('typingResponse')).toMatchObject({
      userId: alice.id,
      name: 'Alice Typist',
      room: red.rtcSession,
    });
    expect(b.all('messageResponse')).toEqual([]);

    release();
    expect(await acknowledged).toEqual({ success: true });
    expect(await b.next('messageResponse')).toMatchObject({ textMsg: 'Hello' });
    app.services.sendMessage = realSend;
  });
});
