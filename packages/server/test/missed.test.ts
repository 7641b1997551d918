/**
 * Nothing missed (issue 34): a recorded transmission is heard live by the members with a page in its channel
 * (not busy), and missed by the others; the counts per channel, a channel's list oldest first, marking played
 * ones heard for every device (pushed to the member's sockets), the window and the member's join time, the
 * Available / Busy status, and nobody reads another's list or marks another channel's transmissions.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { multipartForm, webmOpus } from './chat-fixtures.ts';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, eventually, listen, type TestClient } from './realtime-harness.ts';

describe.each(databases)('missed transmissions on %s', (dialect) => {
  let app: TestApp;
  let url: string;
  let admin: Account;
  let mia: Account;
  let noe: Account;
  let lou: Account;
  let alpha: { id: number; rtcSession: string };
  let bravo: { id: number; rtcSession: string };
  const clients: TestClient[] = [];

  const missed = (account: Account, channelId?: number) =>
    app.call('/user/api/getMissedTransmissions', channelId === undefined ? {} : { channelId }, account.token);

  /** A transmission of `who` in `channel`, recorded by the talker's browser (with its floor grant) and kept. */
  async function transmit(who: Account, channel: { id: number }, startedAt = new Date()): Promise<number> {
    const grantId = randomUUID();
    await app.services.db
      .insertInto('talk_bursts')
      .values({
        grant_id: grantId,
        user_id: who.id,
        channel_id: channel.id,
        channel_name: 'x',
        started_at: startedAt.toISOString(),
        ended_at: new Date(startedAt.getTime() + 2000).toISOString(),
        plane: 'mesh',
      })
      .execute();
    const form = multipartForm(
      { channelId: channel.id, startedAt: startedAt.toISOString(), durationMs: 1500, grantId },
      { field: 'audio', fileName: 'talk.webm', contentType: 'audio/webm', bytes: webmOpus() },
    );
    const response = await app.fastify.inject({
      method: 'POST',
      url: '/user/api/uploadVoiceMessage',
      headers: { 'content-type': form.contentType, 'x-access-token': who.token },
      payload: form.payload,
    });
    expect(response.statusCode).toBe(200);
    return response.json().res.id;
  }

  /** A page of `who` in `channel`'s room, present in the database. */
  async function inRoom(who: Account, channel: { id: number; rtcSession: string }): Promise<TestClient> {
    const client = await connect(url, who.token);
    clients.push(client);
    client.socket.emit('join_room', { room: channel.rtcSession });
    await client.next('all_users');
    await eventually(
      () =>
        app.services.db
          .selectFrom('user_sockets')
          .select('id')
          .where('user_id', '=', who.id)
          .where('channel_id', '=', channel.id)
          .executeTakeFirst(),
      'the page present in the channel',
    );
    return client;
  }

  beforeEach(async () => {
    app = await startApp(dialect);
    url = await listen(app);
    admin = await signUpAdmin(app);
    mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Talker' });
    noe = await createMember(app, admin, { firstName: 'Noe', lastName: 'Present' });
    lou = await createMember(app, admin, { firstName: 'Lou', lastName: 'Away' });
    alpha = (await app.call('/user/api/createChannel', { channelName: 'Alpha' }, admin.token)).body.res;
    bravo = (await app.call('/user/api/createChannel', { channelName: 'Bravo' }, admin.token)).body.res;
    await app.services.memberships.add(alpha.id, [mia.id, noe.id, lou.id]);
    await app.services.memberships.add(bravo.id, [mia.id, lou.id]);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.close();
  });

  it('counts what a member did not hear live, lists it oldest first, and marks it heard for every device', async () => {
    // Noe has two pages in Alpha: heard once.
    await inRoom(noe, alpha);
    await inRoom(noe, alpha);
    const louPhone = await connect(url, lou.token);
    clients.push(louPhone);
    const first = await transmit(mia, alpha);
    expect(await louPhone.next('missedTransmissionsChanged')).toEqual({ channelIds: [alpha.id] });
    const second = await transmit(mia, alpha);
    const third = await transmit(mia, bravo);

    // Noe's page was in Alpha: heard live. The talker never misses its own.
    expect((await missed(noe)).body).toMatchObject({ success: true, channels: [], busy: false });
    expect((await missed(mia)).body.channels).toEqual([]);
    const louCounts = (await missed(lou)).body.channels;
    expect(louCounts).toEqual(
      [
        { channelId: alpha.id, count: 2 },
        { channelId: bravo.id, count: 1 },
      ].sort((a, b) => a.channelId - b.channelId),
    );
    const list = (await missed(lou, alpha.id)).body.res;
    expect(list.map((message: { id: number }) => message.id)).toEqual([first, second]);
    expect(list[0]).toMatchObject({
      channelId: alpha.id,
      userId: mia.id,
      url: expect.stringMatching(/^\/files\/voice\//),
    });

    // Played on the phone: heard on every device, and the other devices are told.
    const louLaptop = await connect(url, lou.token);
    clients.push(louLaptop);
    expect((await app.call('/user/api/markTransmissionsHeard', { ids: [first, second] }, lou.token)).status).toBe(200);
    expect(await louLaptop.next('missedTransmissionsChanged')).toEqual({ channelIds: [alpha.id] });
    expect((await missed(lou)).body.channels).toEqual([{ channelId: bravo.id, count: 1 }]);
    expect((await missed(lou, bravo.id)).body.res.map((message: { id: number }) => message.id)).toEqual([third]);
  });

  it('keeps transmissions for a busy member, even with its page in the channel; available again, it hears live', async () => {
    const page = await inRoom(noe, alpha);
    expect((await app.call('/user/api/setAvailability', { busy: true }, noe.token)).status).toBe(200);
    expect(await page.next('missedTransmissionsChanged')).toEqual({ channelIds: [], busy: true });
    expect((await missed(noe)).body.busy).toBe(true);
    const kept = await transmit(mia, alpha);
    expect((await missed(noe)).body.channels).toEqual([{ channelId: alpha.id, count: 1 }]);

    await app.call('/user/api/setAvailability', { busy: false }, noe.token);
    await transmit(mia, alpha);
    expect((await missed(noe, alpha.id)).body.res.map((message: { id: number }) => message.id)).toEqual([kept]);
    expect((await missed(noe)).body.busy).toBe(false);
  });

  it('counts only since the member joined the channel and within the last 24 hours', async () => {
    const old = await transmit(mia, alpha, new Date(Date.now() - 25 * 3600_000));
    await app.services.db
      .updateTable('voice_messages')
      .set({ created_at: new Date(Date.now() - 25 * 3600_000).toISOString() })
      .where('id', '=', old)
      .execute();
    await transmit(mia, alpha);
    expect((await missed(lou)).body.channels).toEqual([{ channelId: alpha.id, count: 1 }]);

    // Zoe joins Alpha now: what was said before is history, not missed.
    const zoe = await createMember(app, admin, { firstName: 'Zoe', lastName: 'New' });
    await app.services.memberships.add(alpha.id, [zoe.id]);
    expect((await missed(zoe)).body.channels).toEqual([]);
  });

  it('reads only one’s own channels, marks only their transmissions, and checks what it is sent', async () => {
    const inBravo = await transmit(mia, bravo);
    // Noe is not in Bravo: no list, and marking its transmission does nothing for anyone.
    expect((await missed(noe, bravo.id)).body.res).toEqual([]);
    expect((await app.call('/user/api/markTransmissionsHeard', { ids: [inBravo] }, noe.token)).status).toBe(200);
    expect(
      await app.services.db.selectFrom('voice_heard').select('user_id').where('user_id', '=', noe.id).execute(),
    ).toEqual([]);
    expect((await missed(lou)).body.channels).toEqual([{ channelId: bravo.id, count: 1 }]);

    expect((await app.call('/user/api/markTransmissionsHeard', { ids: [] }, lou.token)).status).toBe(400);
    expect((await app.call('/user/api/markTransmissionsHeard', { ids: ['x'] }, lou.token)).status).toBe(400);
    expect((await app.call('/user/api/setAvailability', { busy: 'yes' }, lou.token)).status).toBe(400);
    expect((await app.call('/user/api/getMissedTransmissions', {})).status).toBe(401);
  });
});
