/**
 * The access matrix of docs/api.md, cell by cell, over the three roles: for every call whose rule one body
 * shows for every caller, no token gives 401, and an administrator, a dispatcher of the channel the call names,
 * a dispatcher of another channel, a member of the channel and a member outside it each get the status that
 * the call's declared `access` and protocol's role table (`may`, `mayAnywhere`) give. A few cells are also
 * written out by hand (`explicit`), so that a wrong table fails as well as a server that does not follow it.
 */

import type { Access, Capability, Role } from '@talkgroup/protocol';
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
import { createWithRole } from './role-fixtures.ts';

/** The channels of the fixture: the test channel (Alpha) and another one (Beta). */
type Where = 'channel' | 'other';

/** The callers: their role and the channels they belong to. */
const CALLERS = {
  insider: { role: 'member', in: ['channel'] },
  outsider: { role: 'member', in: [] },
  dispatcher: { role: 'dispatcher', in: ['channel'] },
  otherDispatcher: { role: 'dispatcher', in: ['other'] },
  admin: { role: 'admin', in: [] },
} as const satisfies Record<string, { role: Role; in: readonly Where[] }>;
type CallerName = keyof typeof CALLERS;
/** The administrator goes last: its successes change what the others would see (a deleted channel, user). */
const CALLER_ORDER: CallerName[] = ['insider', 'outsider', 'dispatcher', 'otherDispatcher', 'admin'];

interface Fixture extends Record<CallerName, Account> {
  channelId: number;
  otherChannelId: number;
  insiderMessageId: number;
  burstId: number;
  alertId: number;
}

interface Variant {
  body: (f: Fixture) => object;
  /** The channel the body names, for a `channel.*` capability: the handler asks `may` about it. */
  about?: Where;
  /** The code of a refusal in that channel when it is not the usual one (not_channel_member / not_allowed). */
  refusal?: string;
  label?: string;
}

const plain = (body: Variant['body']): Variant => ({ body });
const inChannel = (body: Variant['body'], extra: Partial<Variant> = {}): Variant => ({
  body,
  about: 'channel',
  ...extra,
});

/**
 * Bodies for each call of the matrix, by path (several when a call may or may not name a channel). The access
 * each cell checks is the one the call declares in packages/protocol, so the matrix, the server's guard and
 * docs/api.md (access-docs.test.ts) agree.
 */
const bodies: Record<string, Variant | Variant[]> = {
  '/user/api/getAllChannels': plain(() => ({})),
  '/user/api/getChannelOverviews': plain(() => ({})),
  '/user/api/getChannelsToExport/': plain(() => ({})),
  '/user/api/createChannel': plain(() => ({ channelName: 'Created' })),
  '/user/api/updateChannel': plain((f) => ({ channelId: f.channelId, channelName: 'Renamed' })),
  '/user/api/deleteChannel': plain((f) => ({ channelId: f.otherChannelId })),
  '/user/api/createMultipleChannels': plain(() => ({ channelData: [{ name: 'Imported' }] })),
  '/user/api/addUserToChannel': plain((f) => ({ userId: f.outsider.id, channelId: f.channelId })),
  '/user/api/deleteUserFromChannel': plain((f) => ({ userId: f.insider.id, channelId: f.channelId })),
  '/user/api/setChannelMemberRights': plain((f) => ({ channelId: f.channelId, userId: f.insider.id, canTalk: false })),
  '/user/api/updateUserChannels': plain((f) => ({ userList: [f.insider.id, f.outsider.id], channelId: f.channelId })),
  '/user/api/updateChannelUsers': plain((f) => ({ userId: f.outsider.id, channelList: [f.channelId] })),
  '/user/api/getLastActivities/': plain(() => ({})),
  '/user/api/getAllActivities/': [
    plain(() => ({ start: 0, limit: 21 })),
    inChannel((f) => ({ start: 0, limit: 21, channelId: f.channelId }), { label: 'naming the channel' }),
  ],
  '/user/api/deleteOldActivities': plain(() => ({ timeFrame: '1w' })),
  '/user/api/getUserCallEvents': plain((f) => ({ userId: f.insider.id })),
  '/user/api/getUserEndCallEventsByCallId': plain((f) => ({ callId: f.burstId })),
  '/device/getDeviceByMacAddress': plain(() => ({ macAddress: '00:1A:2B:3C:4D:5E' })),
  '/device/getAllMaterialTypes/': plain(() => ({})),
  '/user/api/getUsersInChannel': inChannel((f) => ({ channelId: f.channelId })),
  '/user/api/getchannelmessagelistForAdmin': inChannel((f) => ({ channelId: f.channelId })),
  '/user/api/sendMessageToChannel': inChannel((f) => ({ channelId: f.channelId, message: 'hello' })),
  '/user/api/uploadFile': inChannel((f) => ({ channelId: f.channelId })),
  '/user/api/getChannelVoiceMessages': inChannel((f) => ({ channelId: f.channelId })),
  '/user/api/getMyChannels': plain(() => ({})),
  '/user/api/getClientConfig': plain(() => ({})),
  '/user/api/logout': plain(() => ({})),
  '/user/api/getAllUsers': plain(() => ({})),
  '/user/api/getUsersPage': plain(() => ({ start: 0, limit: 5 })),
  '/user/api/getUserIds': plain((f) => ({ channelId: f.channelId })),
  '/user/api/getListUsersToExport/': plain(() => ({})),
  '/user/api/updateUserData': plain((f) => ({ id: f.insider.id, firstName: 'Ines', lastName: 'Insider' })),
  '/user/api/deleteUser': plain((f) => ({ UserId: f.outsider.id })),
  '/user/api/createMultipleUsers': plain(() => ({
    userData: [{ firstName: 'Ivo', lastName: 'Imported', identifier: 'ivo@example.org', password: 'secret1' }],
  })),
  '/user/api/updateUserChannelsByChannelName/': plain((f) => ({
    userIdentifier: f.insider.identifier,
    channelNames: ['Alpha'],
  })),
  '/user/api/removeUserChannels/': plain((f) => ({ userIdentifier: f.outsider.identifier })),
  '/user/api/getStatistics': plain(() => ({})),
  '/user/api/getEmergencyAlerts': plain(() => ({ start: 0, limit: 5 })),
  '/user/api/getAuditLog': plain(() => ({ start: 0, limit: 5 })),
  // The alert was raised in the test channel; a dispatcher of another one does not take it.
  '/user/api/acknowledgeEmergencyAlert': inChannel((f) => ({ alertId: f.alertId }), { refusal: 'not_allowed' }),
  '/user/api/getSentInvitation': plain((f) => ({ aUserId: f.insider.id })),
  '/user/api/getmyfriendlists': plain((f) => ({ idUser: f.insider.id })),
  '/user/api/getinvitationlists': plain((f) => ({ idUser: f.insider.id })),
};

/** Calls whose access rule needs more than one body for every caller: the test that checks it. */
const checkedElsewhere: Record<string, string> = {
  '/user/api/login': 'accounts.test.ts',
  '/user/api/isValidToken': 'accounts.test.ts',
  '/user/api/signUpUser': 'accounts.test.ts, roles.test.ts (role)',
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

/** Cells written out by hand: the table must give these (a wrong table fails here, not only in the server). */
const explicit: Array<[CallerName, string, number]> = [
  ...[
    '/user/api/getAllUsers',
    '/user/api/createChannel',
    '/user/api/addUserToChannel',
    '/user/api/setChannelMemberRights',
    '/user/api/deleteOldActivities',
    '/user/api/getAuditLog',
    '/user/api/getStatistics',
    '/user/api/getUserIds',
    '/device/getDeviceByMacAddress',
  ].map((path): [CallerName, string, number] => ['dispatcher', path, 403]),
  ...[
    '/user/api/getUsersInChannel',
    '/user/api/getchannelmessagelistForAdmin',
    '/user/api/sendMessageToChannel',
    '/user/api/uploadFile',
    '/user/api/getChannelVoiceMessages',
    '/user/api/getAllActivities/',
    '/user/api/getLastActivities/',
    '/user/api/getEmergencyAlerts',
    '/user/api/acknowledgeEmergencyAlert',
  ].map((path): [CallerName, string, number] => ['dispatcher', path, 200]),
  ['otherDispatcher', '/user/api/getUsersInChannel', 403],
  ['otherDispatcher', '/user/api/sendMessageToChannel', 403],
  ['otherDispatcher', '/user/api/acknowledgeEmergencyAlert', 403],
  ['insider', '/user/api/getUsersInChannel', 200],
  ['insider', '/user/api/getAllActivities/', 403],
  ['insider', '/user/api/getEmergencyAlerts', 403],
  ['outsider', '/user/api/getchannelmessagelistForAdmin', 403],
  ['admin', '/user/api/setChannelMemberRights', 200],
  ['admin', '/user/api/getAuditLog', 200],
];

const calls = Object.values(protocol).flatMap((value) => (protocol.isCall(value) ? [value] : []));

interface Cell extends Variant {
  call: string;
  access: Access;
  method?: 'GET' | 'MULTIPART';
}

const cells: Cell[] = calls.flatMap((call) =>
  [bodies[call.path] ?? []].flat().map((variant) => ({
    ...variant,
    call: call.path,
    access: call.access,
    method: call.method === 'GET' ? ('GET' as const) : call.encoding ? ('MULTIPART' as const) : undefined,
  })),
);

/** The server's words when the role holds the capability nowhere: "only an administrator" if only they do. */
function roleRefusal(capability: Capability): string {
  const holders = protocol.ROLES.filter((role) => protocol.mayAnywhere({ role }, capability));
  return holders.length === 1 && holders[0] === 'admin' ? 'admin_only' : 'not_allowed';
}

/** What a caller gets for a cell, by the call's access and protocol's table. */
function expected(cell: Cell, caller: CallerName): { status: number; code?: string } {
  if (cell.access === 'signedIn') return { status: 200 };
  if (cell.access === 'gone') return { status: 410 };
  if (!protocol.isCapability(cell.access)) throw new Error(`${cell.call}: no cell can check ${cell.access}`);
  const actor = { role: CALLERS[caller].role, mapRight: false };
  if (!protocol.mayAnywhere(actor, cell.access)) return { status: 403, code: roleRefusal(cell.access) };
  if (!cell.about || protocol.may(actor, null, cell.access)) return { status: 200 };
  const member = (CALLERS[caller].in as readonly Where[]).includes(cell.about);
  if (protocol.may(actor, { member }, cell.access)) return { status: 200 };
  return { status: 403, code: cell.refusal ?? (member ? 'not_allowed' : 'not_channel_member') };
}

describe('the access matrix', () => {
  it('has a cell, or the name of the test that checks it, for every call of the protocol', () => {
    const unchecked = calls.map((call) => call.path).filter((path) => !bodies[path] && !checkedElsewhere[path]);
    expect(unchecked).toEqual([]);
    const unknown = [...Object.keys(bodies), ...Object.keys(checkedElsewhere)].filter(
      (path) => !calls.some((call) => call.path === path),
    );
    expect(unknown).toEqual([]);
  });

  it('checks in its cells only capabilities and the levels that one body can show for every caller', () => {
    const levels = new Set(cells.map((cell) => cell.access));
    expect(
      [...levels].filter((level) => !protocol.isCapability(level) && !['signedIn', 'gone'].includes(level)),
    ).toEqual([]);
  });

  it('gives by the role table the statuses written out by hand', () => {
    const cellOf = (path: string) => cells.find((cell) => cell.call === path) as Cell;
    const got = explicit.map(([caller, path]) => [caller, path, expected(cellOf(path), caller).status]);
    expect(got).toEqual(explicit);
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
    const dispatcher = await createWithRole(app, admin, 'dispatcher');
    const otherDispatcher = await createWithRole(app, admin, 'dispatcher');
    const create = async (channelName: string) =>
      (await app.call('/user/api/createChannel', { channelName }, admin.token)).body.res.id as number;
    const channelId = await create('Alpha');
    const otherChannelId = await create('Beta');
    await app.services.memberships.add(channelId, [insider.id, dispatcher.id]);
    await app.services.memberships.add(otherChannelId, [otherDispatcher.id]);
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
    const sent = await app.call('/user/api/sendMessageToChannel', { channelId, message: 'first' }, insider.token);
    const alert = await app.services.emergency.raise({ userId: insider.id, role: 'member' }, { channelId });
    f = {
      admin,
      insider,
      outsider,
      dispatcher,
      otherDispatcher,
      channelId,
      otherChannelId,
      insiderMessageId: sent.body.res.id,
      burstId: burst.id,
      alertId: alert.id,
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

  it.each(cells.map((cell) => [`${cell.call}${cell.label ? ` ${cell.label}` : ''}`, cell.access, cell] as const))(
    '%s (%s)',
    async (_call, _access, cell) => {
      const anonymous = await perform(cell, undefined);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ success: false, result: expect.any(String), code: 'token_missing' });
      const forged = await perform(cell, 'not-a-token');
      expect(forged.status).toBe(401);

      const got: Record<string, { status: number; code?: string }> = {};
      const wanted: Record<string, { status: number; code?: string }> = {};
      for (const caller of CALLER_ORDER) {
        const answer = await perform(cell, f[caller].token);
        wanted[caller] = expected(cell, caller);
        got[caller] = wanted[caller].code
          ? { status: answer.status, code: answer.body?.code }
          : { status: answer.status };
        if (answer.status === 200) expectNoSecrets(answer.body);
        if (answer.body?.code === 'admin_only') expect(answer.body.result).toBe('Only an administrator may do this.');
        if (answer.body?.code === 'not_allowed') expect(answer.body.result).toBe('Your role does not allow this.');
        if (answer.body?.code === 'not_channel_member')
          expect(answer.body.result).toBe('You are not a member of this channel.');
      }
      expect(got).toEqual(wanted);
    },
  );

  it('deleteMessageById: a member deletes only its own messages, a dispatcher none of others, an administrator any', async () => {
    const del = (msgId: number, token?: string) => app.call('/user/api/deleteMessageById', { msgId }, token);
    const send = async (account: Account) =>
      (await app.call('/user/api/sendMessageToChannel', { channelId: f.channelId, message: 'x' }, account.token)).body
        .res.id as number;
    const adminMessageId = await send(f.admin);
    expect((await del(f.insiderMessageId)).status).toBe(401);
    expect((await del(f.insiderMessageId, f.outsider.token)).status).toBe(403);
    expect((await del(f.insiderMessageId, f.dispatcher.token)).status).toBe(403);
    expect((await del(adminMessageId, f.insider.token)).status).toBe(403);
    expect((await del(f.insiderMessageId, f.insider.token)).status).toBe(200);
    expect((await del(await send(f.dispatcher), f.dispatcher.token)).status).toBe(200);
    expect((await del(adminMessageId, f.admin.token)).status).toBe(200);
    expect((await del(await send(f.insider), f.admin.token)).status).toBe(200);
  });

  it('a member or dispatcher of one channel cannot read or write another channel, even by a missing id', async () => {
    for (const account of [f.insider, f.dispatcher]) {
      for (const channelId of [f.otherChannelId, 99999]) {
        for (const call of [
          '/user/api/getUsersInChannel',
          '/user/api/getchannelmessagelistForAdmin',
          '/user/api/getChannelVoiceMessages',
        ]) {
          const refused = await app.call(call, { channelId }, account.token);
          expect(refused.status).toBe(403);
          expect(refused.body.code).toBe('not_channel_member');
        }
        const sent = await app.call('/user/api/sendMessageToChannel', { channelId, message: 'x' }, account.token);
        expect(sent.status).toBe(403);
      }
    }
    // One who holds the capability everywhere learns that the channel does not exist.
    expect((await app.call('/user/api/getUsersInChannel', { channelId: 99999 }, f.admin.token)).status).toBe(404);
  });

  it('getMyChannels gives each member and dispatcher its own channels only', async () => {
    const ids = async (account: Account) =>
      (await app.call('/user/api/getMyChannels', {}, account.token)).body.res.map((c: { id: number }) => c.id);
    expect(await ids(f.insider)).toEqual([f.channelId]);
    expect(await ids(f.dispatcher)).toEqual([f.channelId]);
    expect(await ids(f.otherDispatcher)).toEqual([f.otherChannelId]);
    expect(await ids(f.outsider)).toEqual([]);
  });
});
