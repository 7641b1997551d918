/**
 * The chat path: a message costs one read (channel, membership and the sender's names together) and one
 * transaction (the message and its activity), on SQLite and PostgreSQL. The access rules stay those of
 * requireReader: a member outside the channel gets 403, an administrator naming no channel 404.
 */

import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs } from 'kysely';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activityStore } from '../src/activities/store.ts';
import { channelAccess } from '../src/channels/access.ts';
import { membershipStore } from '../src/channels/membership.ts';
import { channelStore } from '../src/channels/store.ts';
import { createEventBus } from '../src/events.ts';
import { messageSender } from '../src/messages/send.ts';
import { messageStore } from '../src/messages/store.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

function queryLog() {
  const kinds: string[] = [];
  const plugin: KyselyPlugin = {
    transformQuery(args: PluginTransformQueryArgs) {
      kinds.push(args.node.kind);
      return args.node;
    },
    transformResult: async (args: PluginTransformResultArgs) => args.result,
  };
  return { kinds, plugin };
}

describe.each(databases)('the chat path on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  let member: Account;
  let outsider: Account;
  let channelId: number;

  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
    member = await createMember(app, admin);
    outsider = await createMember(app, admin);
    channelId = (await app.call('/user/api/createChannel', { channelName: 'Chat path' }, admin.token)).body.res.id;
    await app.call('/user/api/addUserToChannel', { channelId, userId: member.id }, admin.token);
  });

  afterEach(async () => {
    await app.close();
  });

  function sender() {
    const { kinds, plugin } = queryLog();
    const db = app.services.db.withPlugin(plugin);
    const events = createEventBus(() => {});
    const pushed: string[] = [];
    events.on('activityRecorded', () => pushed.push('activity'));
    events.on('messageCreated', () => pushed.push('message'));
    const channels = channelStore(db);
    const send = messageSender({
      db,
      access: channelAccess(channels, membershipStore(db)),
      messages: messageStore(db, { sign: (p: string) => p } as never),
      activities: activityStore(db, events),
      events,
    });
    return { kinds, pushed, send };
  }

  it('reads once and writes the message and its activity in one transaction', async () => {
    const { kinds, pushed, send } = sender();
    const message = await send({ sender: { userId: member.id, role: 'member' }, channelId, text: 'bonjour' });
    expect(message.textMsg).toBe('bonjour');
    expect(message.user.display_name).toBe((await app.services.users.row(member.id))?.display_name);
    expect(kinds).toEqual(['SelectQueryNode', 'InsertQueryNode', 'InsertQueryNode']);
    expect(pushed).toEqual(['activity', 'message']);

    const activity = await app.services.db
      .selectFrom('activities')
      .selectAll()
      .where('type', '=', 'message_send')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(activity.user_id).toBe(member.id);
    expect(activity.channel_id).toBe(channelId);
    expect(activity.user_display_name).toBe(message.user.display_name);
    if (dialect === 'postgres') {
      // Rows written by one transaction carry its id (xmin).
      const { rows } = await sql<{ a: string; m: string }>`select
          (select xmin::text from activities where id = ${activity.id}) as a,
          (select xmin::text from messages where id = ${message.id}) as m`.execute(app.services.db);
      expect(rows[0]?.a).toBe(rows[0]?.m);
    }
  });

  it('keeps the access answers: 403 for a member outside, 404 for an unknown channel, admins anywhere', async () => {
    const { send } = sender();
    await expect(send({ sender: { userId: outsider.id, role: 'member' }, channelId, text: 'x' })).rejects.toMatchObject(
      {
        statusCode: 403,
      },
    );
    await expect(
      send({ sender: { userId: outsider.id, role: 'member' }, channelId: channelId + 999, text: 'x' }),
    ).rejects.toMatchObject({ statusCode: 403 });
    await expect(
      send({ sender: { userId: admin.id, role: 'admin' }, channelId: channelId + 999, text: 'x' }),
    ).rejects.toMatchObject({ statusCode: 404 });
    const byAdmin = await send({ sender: { userId: admin.id, role: 'admin' }, channelId, text: 'from admin' });
    expect(byAdmin.userId).toBe(admin.id);
    const count = await app.services.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });
});
