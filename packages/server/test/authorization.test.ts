/**
 * The access matrix of docs/api.md, cell by cell: for every call whose rule one body shows for every caller,
 * no token gives 401, a member 403 where the call is for administrators, a member outside
 * the channel 403 where the call is for readers of the channel, and the allowed callers succeed.
 */

import type { Access } from '@talkgroup/protocol';
import * as protocol from '@talkgroup/protocol';
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
  alertId: number;
}

/**
 * A body for each call of the matrix, by path. The access level each cell checks is the one the call declares
 * in packages/protocol, so the matrix, the server's guard and docs/api.md (access-docs.test.ts) agree.
 */
const bodies: Record<string, (f: Fixture) => object> = {
  '/user/api/getAllChannels': () => ({}),
  '/user/api/getChannelOverviews': () => ({}),
  '/user/api/getChannelsToExport/': () => ({}),
  '/user/api/createChannel': () => ({ channelName: 'Created' }),
  '/user/api/updateChannel': (f) => ({ channelId: f.channelId, channelName: 'Renamed' }),
  '/user/api/deleteChannel': (f) => ({ channelId: f.otherChannelId }),
  '/user/api/createMultipleChannels': () => ({ channelData: [{ name: 'Imported' }] }),
  '/user/api/addUserToChannel': (f) => ({ userId: f.outsider.id, channelId: f.channelId }),
  '/user/api/deleteUserFromChannel': (f) => ({ userId: f.insider.id, channelId: f.channelId }),
  '/user/api/updateUserChannels': (f) => ({ userList: [f.insider.id, f.outsider.id], channelId: f.channelId }),
  '/user/api/updateChannelUsers': (f) => ({ userId: f.outsider.id, channelList: [f.channelId] }),
  '/user/api/getLastActivities/': () => ({}),
  '/user/api/getAllActivities/': () => ({ start: 0, limit: 21 }),
  '/user/api/deleteOldActivities': () => ({ timeFrame: '1w' }),
  '/user/api/getUserCallEvents': (f) => ({ userId: f.insider.id }),
  '/user/api/getUserEndCallEventsByCallId': (f) => ({ callId: f.burstId }),
  '/device/getDeviceByMacAddress': () => ({ macAddress: '00:1A:2B:3C:4D:5E' }),
  '/device/getAllMaterialTypes/': () => ({}),
  '/user/api/getUsersInChannel': (f) => ({ channelId: f.channelId }),
  '/user/api/getchannelmessagelistForAdmin': (f) => ({ channelId: f.channelId }),
  '/user/api/sendMessageToChannel': (f) => ({ channelId: f.channelId, message: 'hello' }),
  '/user/api/uploadFile': (f) => ({ channelId: f.channelId }),
  '/user/api/getChannelVoiceMessages': (f) => ({ channelId: f.channelId }),
  '/user/api/getMyChannels': () => ({}),
  '/user/api/getClientConfig': () => ({}),
  '/user/api/logout': () => ({}),
  '/user/api/getAllUsers': () => ({}),
  '/user/api/getUsersPage': () => ({ start: 0, limit: 5 }),
  '/user/api/getUserIds': (f) => ({ channelId: f.channelId }),
  '/user/api/getListUsersToExport/': () => ({}),
  '/user/api/updateUserData': (f) => ({ id: f.insider.id, firstName: 'Ines', lastName: 'Insider' }),
  '/user/api/deleteUser': (f) => ({ UserId: f.outsider.id }),
  '/user/api/createMultipleUsers': () => ({
    userData: [{ firstName: 'Ivo', lastName: 'Imported', identifier: 'ivo@example.org', password: 'secret1' }],
  }),
  '/user/api/updateUserChannelsByChannelName/': (f) => ({
    userIdentifier: f.insider.identifier,
    channelNames: ['Alpha'],
  }),
  '/user/api/removeUserChannels/': (f) => ({ userIdentifier: f.outsider.identifier }),
  '/user/api/getStatistics': () => ({}),
  '/user/api/getEmergencyAlerts': () => ({ start: 0, limit: 5 }),
  '/user/api/getAuditLog': () => ({ start: 0, limit: 5 }),
  '/user/api/acknowledgeEmergencyAlert': (f) => ({ alertId: f.alertId }),
  '/user/api/getSentInvitation': (f) => ({ aUserId: f.insider.id }),
  '/user/api/getmyfriendlists': (f) => ({ idUser: f.insider.id }),
  '/user/api/getinvitationlists': (f) => ({ idUser: f.insider.id }),
};

/** Calls whose access rule needs more than one body for every caller: the test that checks it. */
const checkedElsewhere: Record<string, string> = {
  '/user/api/login': 'accounts.test.ts',
  '/user/api/isValidToken': 'accounts.test.ts',
  '/user/api/signUpUser': 'accounts.test.ts',
  '/user/api/getSignUpState': 'server-messages.test.ts',
  '/user/api/getUserById/': 'users.test.ts',
  '/user/api/updatePasswordUser': 'users.test.ts',
  '/user/api/verifyPassword': 'users.test.ts',
  '/user/api/deleteUserTokens/': 'users.test.ts',
  '/user/api/uploadUserPhoto': 'users.test.ts',
  '/user/api/connectAdminToChannel/': 'realtime.test.ts',
  '/user/api/updateUserMicState/': 'realtime.test.ts',
  '/user/api/deleteMessageById': 'this file: "deleteMessageById: a member deletes only its own messages"',
  '/user/api/uploadVoiceMessage': 'voice-messages.test.ts',
  '/user/api/sendEmergencyAlert': 'emergency.test.ts (one per 30 s per sender: one body cannot serve every caller)',
  '/user/api/deleteVoiceMessage': 'voice-messages.test.ts',
};

const calls = Object.values(protocol).flatMap((value) => (protocol.isCall(value) ? [value] : []));

interface Cell {
  call: string;
  access: Access;
  body: (f: Fixture) => object;
  method?: 'GET' | 'MULTIPART';
}

const cells: Cell[] = calls
  .filter((call) => bodies[call.path])
  .map((call) => ({
    call: call.path,
    access: call.access,
    body: bodies[call.path],
    method: call.method === 'GET' ? 'GET' : call.encoding ? 'MULTIPART' : undefined,
  }));

describe('the access matrix', () => {
  it('has a cell, or the name of the test that checks it, for every call of the protocol', () => {
    const unchecked = calls.map((call) => call.path).filter((path) => !bodies[path] && !checkedElsewhere[path]);
    expect(unchecked).toEqual([]);
    const unknown = [...Object.keys(bodies), ...Object.keys(checkedElsewhere)].filter(
      (path) => !calls.some((call) => call.path === path),
    );
    expect(unknown).toEqual([]);
  });

  it('checks in its cells only levels that one body can show for every caller', () => {
    const levels = new Set(cells.map((cell) => cell.access));
    expect([...levels].filter((level) => !['admin', 'reader', 'signedIn', 'gone'].includes(level))).toEqual([]);
  });
});

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
      alertId: (await app.services.emergency.raise({ userId: insider.id, role: 'member' }, {})).id,
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
    expect(anonymous.body).toEqual({ success: false, result: expect.any(String), code: 'token_missing' });
    const forged = await perform(cell, 'not-a-token');
    expect(forged.status).toBe(401);

    const outsider = await perform(cell, f.outsider.token);
    const insider = await perform(cell, f.insider.token);
    if (access === 'admin') {
      expect(outsider.status).toBe(403);
      expect(insider.status).toBe(403);
      expect(insider.body).toEqual({
        success: false,
        result: 'Only an administrator may do this.',
        code: 'admin_only',
      });
    } else if (access === 'reader') {
      expect(outsider.status).toBe(403);
      expect(outsider.body).toEqual({
        success: false,
        result: 'You are not a member of this channel.',
        code: 'not_channel_member',
      });
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
