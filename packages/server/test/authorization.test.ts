/**
 * The access matrix of docs/api.md, cell by cell: for every call of channels, membership, activities, chat,
 * files and legacy, no token gives 401, a member 403 where the call is for administrators, a member outside
 * the channel 403 where the call is for readers of the channel, and the allowed callers succeed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pngImage, upload } from './chat-fixtures.ts';
import {
  type Account,
  createMember,
  databases,
  expectNoSecrets,
  signUpAdmin,
  startApp,
  type TestApp,
} from './harness.ts';

interface Fixture {
  admin: Account;
  insider: Account;
  outsider: Account;
  channelId: number;
  otherChannelId: number;
  insiderMessageId: number;
  adminMessageId: number;
  burstId: number;
}

/** admin: administrators only; reader: administrators and members of the channel; signedIn: anyone signed in. */
type Access = 'admin' | 'reader' | 'signedIn' | 'gone';

interface Cell {
  call: string;
  access: Access;
  body: (f: Fixture) => object;
  method?: 'GET' | 'MULTIPART';
}

const cells: Cell[] = [
  { call: '/user/api/getAllChannels', access: 'admin', body: () => ({}) },
  { call: '/user/api/getChannelsToExport/', access: 'admin', body: () => ({}) },
  { call: '/user/api/createChannel', access: 'admin', body: () => ({ channelName: 'Created' }) },
  {
    call: '/user/api/updateChannel',
    access: 'admin',
    body: (f) => ({ channelId: f.channelId, channelName: 'Renamed' }),
  },
  { call: '/user/api/deleteChannel', access: 'admin', body: (f) => ({ channelId: f.otherChannelId }) },
  { call: '/user/api/createMultipleChannels', access: 'admin', body: () => ({ channelData: [{ name: 'Imported' }] }) },
  {
    call: '/user/api/addUserToChannel',
    access: 'admin',
    body: (f) => ({ userId: f.outsider.id, channelId: f.channelId }),
  },
  {
    call: '/user/api/deleteUserFromChannel',
    access: 'admin',
    body: (f) => ({ userId: f.insider.id, channelId: f.channelId }),
  },
  {
    call: '/user/api/updateUserChannels',
    access: 'admin',
    body: (f) => ({ userList: [f.insider.id, f.outsider.id], channelId: f.channelId }),
  },
  {
    call: '/user/api/updateChannelUsers',
    access: 'admin',
    body: (f) => ({ userId: f.outsider.id, channelList: [f.channelId] }),
  },
  { call: '/user/api/getLastActivities/', access: 'admin', body: () => ({}) },
  { call: '/user/api/getAllActivities/', access: 'admin', body: () => ({ start: 0, limit: 21 }) },
  { call: '/user/api/deleteOldActivities', access: 'admin', body: () => ({ timeFrame: '1w' }) },
  { call: '/user/api/getUserCallEvents', access: 'admin', body: (f) => ({ userId: f.insider.id }) },
  { call: '/user/api/getUserEndCallEventsByCallId', access: 'admin', body: (f) => ({ callId: f.burstId }) },
  { call: '/device/getDeviceByMacAddress', access: 'admin', body: () => ({ macAddress: '00:1A:2B:3C:4D:5E' }) },
  { call: '/device/getAllMaterialTypes/', access: 'admin', body: () => ({}), method: 'GET' },
  { call: '/user/api/getUsersInChannel', access: 'reader', body: (f) => ({ channelId: f.channelId }) },
  { call: '/user/api/getchannelmessagelistForAdmin', access: 'reader', body: (f) => ({ channelId: f.channelId }) },
  {
    call: '/user/api/sendMessageToChannel',
    access: 'reader',
    body: (f) => ({ channelId: f.channelId, message: 'hello' }),
  },
  { call: '/user/api/uploadFile', access: 'reader', body: (f) => ({ channelId: f.channelId }), method: 'MULTIPART' },
  { call: '/user/api/getMyChannels', access: 'signedIn', body: () => ({}) },
  { call: '/user/api/getSentInvitation', access: 'gone', body: (f) => ({ aUserId: f.insider.id }) },
  { call: '/user/api/getmyfriendlists', access: 'gone', body: (f) => ({ idUser: f.insider.id }) },
  { call: '/user/api/getinvitationlists', access: 'gone', body: (f) => ({ idUser: f.insider.id }) },
];

describe.each(databases)('who may do what on %s', (dialect) => {
  let app: TestApp;
  let f: Fixture;

  beforeEach(async () => {
    app = await startApp(dialect);
    const admin = await signUpAdmin(app);
    const insider = await createMember(app, admin);
    const outsider = await createMember(app, admin);
    const channelId = (await app.call('/user/api/createChannel', { channelName: 'Alpha' }, admin.token)).body.res.id;
    const otherChannelId = (await app.call('/user/api/createChannel', { channelName: 'Beta' }, admin.token)).body.res
      .id;
    await app.call('/user/api/addUserToChannel', { userId: insider.id, channelId }, admin.token);
    const send = async (token: string) =>
      (await app.call('/user/api/sendMessageToChannel', { channelId, message: 'first' }, token)).body.res.id;
    const at = new Date().toISOString();
    const [burst] = await app.services.db
      .insertInto('talk_bursts')
      .values({ user_id: insider.id, channel_id: channelId, channel_name: 'Alpha', started_at: at, ended_at: at })
      .returning('id')
      .execute();
    await app.services.db
      .insertInto('devices')
      .values({
        display_name: 'Radio',
        mac_address: '00:1A:2B:3C:4D:5E',
        type: '',
        manufacturer: '',
        product_ref: '',
        created_at: at,
      })
      .execute();
    f = {
      admin,
      insider,
      outsider,
      channelId,
      otherChannelId,
      insiderMessageId: await send(insider.token),
      adminMessageId: await send(admin.token),
      burstId: burst.id,
    };
  });
  afterEach(async () => {
    await app.close();
  });

  async function perform(cell: Cell, token: string | undefined): Promise<{ status: number; body: any }> {
    if (cell.method === 'MULTIPART') {
      return upload(app, token, cell.body(f) as Record<string, number>, {
        fileName: 'a.png',
        contentType: 'image/png',
        bytes: pngImage(),
      });
    }
    if (cell.method === 'GET') {
      const response = await app.fastify.inject({
        method: 'GET',
        url: cell.call,
        headers: token ? { 'x-access-token': token } : {},
      });
      return { status: response.statusCode, body: response.json() };
    }
    return app.call(cell.call, cell.body(f), token);
  }

  it.each(cells.map((cell) => [cell.call, cell.access, cell] as const))('%s (%s)', async (_call, access, cell) => {
    const anonymous = await perform(cell, undefined);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ success: false, result: expect.any(String) });
    const forged = await perform(cell, 'not-a-token');
    expect(forged.status).toBe(401);

    const outsider = await perform(cell, f.outsider.token);
    const insider = await perform(cell, f.insider.token);
    if (access === 'admin') {
      expect(outsider.status).toBe(403);
      expect(insider.status).toBe(403);
      expect(insider.body).toEqual({ success: false, result: 'Only an administrator may do this.' });
    } else if (access === 'reader') {
      expect(outsider.status).toBe(403);
      expect(outsider.body).toEqual({ success: false, result: 'You are not a member of this channel.' });
      expect(insider.status).toBe(200);
      expectNoSecrets(insider.body);
    } else if (access === 'signedIn') {
      expect(outsider.status).toBe(200);
      expect(insider.status).toBe(200);
    } else {
      expect(outsider.status).toBe(410);
      expect(insider.status).toBe(410);
    }

    const asAdmin = await perform(cell, f.admin.token);
    expect(asAdmin.status).toBe(access === 'gone' ? 410 : 200);
    expectNoSecrets(asAdmin.body);
  });

  it('deleteMessageById: a member deletes only its own messages, an administrator any', async () => {
    const del = (msgId: number, token?: string) => app.call('/user/api/deleteMessageById', { msgId }, token);
    expect((await del(f.insiderMessageId)).status).toBe(401);
    expect((await del(f.insiderMessageId, f.outsider.token)).status).toBe(403);
    expect((await del(f.adminMessageId, f.insider.token)).status).toBe(403);
    expect((await del(f.insiderMessageId, f.insider.token)).status).toBe(200);
    expect((await del(f.adminMessageId, f.admin.token)).status).toBe(200);
    const again = (
      await app.call('/user/api/sendMessageToChannel', { channelId: f.channelId, message: 'x' }, f.insider.token)
    ).body.res.id;
    expect((await del(again, f.admin.token)).status).toBe(200);
  });

  it('a member of one channel cannot read or write another channel, even by a missing id', async () => {
    for (const channelId of [f.otherChannelId, 99999]) {
      for (const call of ['/user/api/getUsersInChannel', '/user/api/getchannelmessagelistForAdmin']) {
        expect((await app.call(call, { channelId }, f.insider.token)).status).toBe(403);
      }
      const sent = await app.call('/user/api/sendMessageToChannel', { channelId, message: 'x' }, f.insider.token);
      expect(sent.status).toBe(403);
    }
  });

  it('getMyChannels gives each member its own channels only', async () => {
    const mine = await app.call('/user/api/getMyChannels', {}, f.insider.token);
    expect(mine.body.res.map((c: { id: number }) => c.id)).toEqual([f.channelId]);
    const none = await app.call('/user/api/getMyChannels', {}, f.outsider.token);
    expect(none.body.res).toEqual([]);
  });
});
