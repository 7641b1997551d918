import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordPushes } from './chat-fixtures.ts';
import {
  type Account,
  createMember,
  databases,
  expectNoSecrets,
  signUpAdmin,
  startApp,
  type TestApp,
} from './harness.ts';

describe.each(databases)('chat messages on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  let mia: Account;
  let channel: { id: number; name: string; rtcSession: string };
  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
    mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Member' });
    channel = (await app.call('/user/api/createChannel', { channelName: 'Alpha Team' }, admin.token)).body.res;
    await app.call('/user/api/addUserToChannel', { userId: mia.id, channelId: channel.id }, admin.token);
  });
  afterEach(async () => {
    await app.close();
  });

  const send = (message: string, token: string, channelId = channel.id, userId?: number) =>
    app.call('/user/api/sendMessageToChannel', { userId, channelId, message }, token);
  const list = (token: string, extra: object = {}) =>
    app.call('/user/api/getchannelmessagelistForAdmin', { channelId: channel.id, ...extra }, token);

  it('stores a trimmed message from the token owner, records message_send and pushes it to the room', async () => {
    const pushes = recordPushes(app);
    // The body's userId is not trusted: the sender is the token owner.
    const sent = await send('  hello team  ', mia.token, channel.id, admin.id);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ success: true, res: { userId: mia.id, textMsg: 'hello team', file: null } });
    const message = sent.body.res;
    // The core pushes onSendMessage once; the spec's messageResponse twin is added at the Socket.IO layer
    // (realtime-events.test.ts checks both over a real socket).
    expect(pushes.filter((p) => p.to === 'room:AlphaTeam')).toEqual([
      { to: 'room:AlphaTeam', event: 'onSendMessage', args: [message] },
    ]);

    const discussion = (await list(admin.token)).body.discussion;
    expect(discussion).toEqual([
      {
        id: message.id,
        userId: mia.id,
        channelId: channel.id,
        textMsg: 'hello team',
        createdAt: expect.stringMatching(/Z$/),
        file: null,
        user: { display_name: 'Mia Member' },
      },
    ]);
    const activities = await app.call('/user/api/getLastActivities/', {}, admin.token);
    expect(activities.body.res[0]).toMatchObject({
      type: 'message_send',
      user: { id: mia.id, display_name: 'Mia Member' },
      channel: { id: channel.id, name: 'Alpha Team' },
    });
  });

  it('refuses a blank message with a 400 naming the field', async () => {
    for (const message of ['', '   ', '\n\t']) {
      const refused = await send(message, admin.token);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        success: false,
        result: 'message: must not be blank',
        code: 'invalid_input',
        params: { details: 'message: must not be blank' },
        fields: [{ field: 'message' }],
      });
    }
    const missing = await app.call('/user/api/sendMessageToChannel', { channelId: channel.id }, admin.token);
    expect(missing.status).toBe(400);
    expect(missing.body.result).toMatch(/^message: /);
    const unknownChannel = await send('hi', admin.token, 9999);
    expect(unknownChannel.status).toBe(404);
    expect((await list(admin.token)).body.discussion).toEqual([]);
  });

  it('lists messages oldest first, the latest 200 first, and the page before an id', async () => {
    const now = Date.now();
    await app.services.db
      .insertInto('messages')
      .values(
        Array.from({ length: 205 }, (_, i) => ({
          channel_id: channel.id,
          user_id: mia.id,
          user_display_name: 'Mia Member',
          text_msg: `message ${i + 1}`,
          file_path: null,
          file_name: null,
          file_mime: null,
          created_at: new Date(now - (205 - i) * 1000).toISOString(),
        })),
      )
      .execute();
    const latest = await list(mia.token);
    expect(latest.status).toBe(200);
    expect(latest.body.hasMore).toBe(true);
    const texts = latest.body.discussion.map((m: { textMsg: string }) => m.textMsg);
    expect(texts).toHaveLength(200);
    expect(texts[0]).toBe('message 6');
    expect(texts[199]).toBe('message 205');

    const older = await list(mia.token, { beforeId: latest.body.discussion[0].id });
    expect(older.body.hasMore).toBe(false);
    expect(older.body.discussion.map((m: { textMsg: string }) => m.textMsg)).toEqual([
      'message 1',
      'message 2',
      'message 3',
      'message 4',
      'message 5',
    ]);
    const small = await list(mia.token, { limit: 10 });
    expect(small.body.discussion.map((m: { textMsg: string }) => m.textMsg).at(-1)).toBe('message 205');
    expect(small.body.discussion).toHaveLength(10);
    expectNoSecrets(small.body);
  });

  it('keeps the messages of other channels apart', async () => {
    const other = (await app.call('/user/api/createChannel', { channelName: 'Other' }, admin.token)).body.res;
    await send('in alpha', admin.token);
    await send('in other', admin.token, other.id);
    expect((await list(admin.token)).body.discussion.map((m: { textMsg: string }) => m.textMsg)).toEqual(['in alpha']);
  });

  it('lets an administrator delete any message and a member only its own', async () => {
    const pushes = recordPushes(app);
    const fromMia = (await send('from mia', mia.token)).body.res;
    const fromAdmin = (await send('from admin', admin.token)).body.res;
    const fromMia2 = (await send('again mia', mia.token)).body.res;

    const refused = await app.call('/user/api/deleteMessageById', { msgId: fromAdmin.id }, mia.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      success: false,
      result: 'You may only delete your own messages.',
      code: 'own_messages_only',
    });

    const own = await app.call('/user/api/deleteMessageById', { msgId: fromMia.id }, mia.token);
    expect(own.body).toEqual({ success: true, result: 'Message deleted', code: 'message_deleted' });
    expect(pushes).toContainEqual({
      to: 'room:AlphaTeam',
      event: 'onMessageDeleted',
      args: [{ id: fromMia.id, channelId: channel.id }],
    });
    const byAdmin = await app.call('/user/api/deleteMessageById', { msgId: fromMia2.id }, admin.token);
    expect(byAdmin.status).toBe(200);
    expect((await list(admin.token)).body.discussion.map((m: { id: number }) => m.id)).toEqual([fromAdmin.id]);

    const gone = await app.call('/user/api/deleteMessageById', { msgId: fromMia.id }, admin.token);
    expect(gone.status).toBe(404);
    const bad = await app.call('/user/api/deleteMessageById', { msgId: 'x' }, admin.token);
    expect(bad.status).toBe(400);
    expect(bad.body.result).toMatch(/^msgId: /);
  });

  it('keeps a message and its author name after the author is deleted', async () => {
    await send('still here', mia.token);
    await app.call('/user/api/deleteUser', { UserId: mia.id }, admin.token);
    const [message] = (await list(admin.token)).body.discussion;
    expect(message).toMatchObject({ userId: null, textMsg: 'still here', user: { display_name: 'Mia Member' } });
  });
});
