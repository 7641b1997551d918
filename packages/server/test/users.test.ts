import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Account,
  createMember,
  databases,
  expectNoSecrets,
  signIn,
  signUpAdmin,
  startApp,
  type TestApp,
} from './harness.ts';

/** Every user call of issue 2 with a valid body, and whether a member may make it for itself. */
const USER_CALLS: Array<{
  path: string;
  body: (ids: { admin: number; member: number }) => object;
  adminOnly: boolean;
}> = [
  { path: '/user/api/getUserById/', body: ({ admin }) => ({ userId: admin }), adminOnly: true },
  { path: '/user/api/getAllUsers', body: () => ({}), adminOnly: true },
  { path: '/user/api/getListUsersToExport/', body: () => ({}), adminOnly: true },
  {
    path: '/user/api/updateUserData',
    body: ({ admin }) => ({
      id: admin,
      firstName: 'X',
      lastName: 'Y',
      email: 'admin@example.org',
      pseudo: '',
      phone_number: '',
    }),
    adminOnly: true,
  },
  {
    path: '/user/api/updatePasswordUser',
    body: ({ admin }) => ({ id: admin, password: 'admin-secret-1', currentPassword: 'admin-secret-1' }),
    adminOnly: true,
  },
  {
    path: '/user/api/verifyPassword',
    body: ({ admin }) => ({ id: admin, password: 'admin-secret-1' }),
    adminOnly: true,
  },
  { path: '/user/api/deleteUserTokens/', body: ({ admin }) => ({ userId: admin }), adminOnly: true },
  { path: '/user/api/deleteUser', body: ({ admin }) => ({ UserId: admin }), adminOnly: true },
  {
    path: '/user/api/uploadUserPhoto',
    body: ({ admin }) => ({ userId: admin, photo_url: 'https://x.org/a.png' }),
    adminOnly: true,
  },
  { path: '/user/api/createMultipleUsers', body: () => ({ userData: [] }), adminOnly: true },
  {
    path: '/user/api/updateUserChannelsByChannelName/',
    body: () => ({ userIdentifier: 'admin@example.org', channelNames: [] }),
    adminOnly: true,
  },
  { path: '/user/api/removeUserChannels/', body: () => ({ userIdentifier: 'admin@example.org' }), adminOnly: true },
  { path: '/user/api/logout', body: () => ({}), adminOnly: false },
];

async function seedChannel(app: TestApp, name: string): Promise<number> {
  const row = await app.services.db
    .insertInto('channels')
    .values({ name, rtc_session: name.replace(/\s+/g, ''), created_at: new Date().toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe.each(databases)('user calls on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app, 'admin@example.org', 'admin-secret-1');
  });
  afterEach(async () => {
    await app.close();
  });

  it.each(USER_CALLS)(
    '$path needs a token (401) and, on another user, an administrator (403)',
    async ({ path, body, adminOnly }) => {
      const member = await createMember(app, admin);
      const ids = { admin: admin.id, member: member.id };
      const anonymous = await app.call(path, body(ids));
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ success: false, result: expect.any(String), code: 'token_missing' });
      const garbage = await app.call(path, body(ids), 'not-a-token');
      expect(garbage.status).toBe(401);
      if (adminOnly) {
        const asMember = await app.call(path, body(ids), member.token);
        expect(asMember.status).toBe(403);
        expect(asMember.body.success).toBe(false);
      }
    },
  );

  it('returns a user with every field of the spec and no secret', async () => {
    const channelId = await seedChannel(app, 'Team Alpha');
    const member = await createMember(app, admin, {
      firstName: 'Mia',
      lastName: 'Stone',
      pseudo: 'mist',
      mapRight: true,
    });
    await app.services.memberships.add(channelId, [member.id]);
    await app.services.db
      .insertInto('user_positions')
      .values([
        { user_id: member.id, lat: 1, lng: 2, accuracy: null, created_at: '2026-01-01T00:00:00.000Z' },
        { user_id: member.id, lat: 3, lng: 4, accuracy: 5, created_at: '2026-01-02T00:00:00.000Z' },
      ])
      .execute();
    const response = await app.call('/user/api/getUserById/', { userId: String(member.id) }, admin.token);
    expect(response.status).toBe(200);
    const user = response.body.res;
    expect(user).toMatchObject({
      id: member.id,
      firstName: 'Mia',
      lastName: 'Stone',
      pseudo: 'mist',
      display_name: 'Mia Stone',
      phone_number: '',
      mapRight: true,
      role: 'member',
      channels: [{ id: channelId, name: 'Team Alpha', rtcSession: 'TeamAlpha' }],
      user_sockets: [],
    });
    expect(new Date(user.createdAt).toISOString()).toBe(user.createdAt);
    expect(user.userPositions[0]).toMatchObject({ lat: 3, lng: 4, accuracy: 5 });
    expect(user.userActivities[0]).toMatchObject({ type: 'login', user: { display_name: 'Mia Stone' } });
    expectNoSecrets(response.body);
    expect((await app.call('/user/api/getUserById/', { userId: 9999 }, admin.token)).status).toBe(404);
  });

  it('lets a member read its own profile but not another one', async () => {
    const member = await createMember(app, admin);
    expect((await app.call('/user/api/getUserById/', { userId: member.id }, member.token)).status).toBe(200);
    expect((await app.call('/user/api/getUserById/', { userId: admin.id }, member.token)).status).toBe(403);
  });

  it('lists every user with the latest activity and position, and exports rows without secrets', async () => {
    const channelId = await seedChannel(app, 'Ops');
    const member = await createMember(app, admin, { firstName: 'Zed' });
    await app.services.memberships.add(channelId, [member.id]);
    const all = await app.call('/user/api/getAllUsers', {}, admin.token);
    expect(all.status).toBe(200);
    expect(all.body.res).toHaveLength(2);
    const zed = all.body.res.find((u: { id: number }) => u.id === member.id);
    expect(zed.userActivities).toHaveLength(1);
    expect(zed.userActivities[0].type).toBe('login');
    expect(zed.channels.map((c: { name: string }) => c.name)).toEqual(['Ops']);
    expectNoSecrets(all.body);

    const exported = await app.call('/user/api/getListUsersToExport/', {}, admin.token);
    expect(exported.body.res).toContainEqual(
      expect.objectContaining({ firstName: 'Zed', canal: 'Ops', mapRight: false }),
    );
    expectNoSecrets(exported.body);
  });

  it('updates a user, keeping the password when blank, and refuses a taken login', async () => {
    const member = await createMember(app, admin, { email: 'mia@example.org', password: 'old-password-1' });
    const other = await createMember(app, admin, { email: 'other@example.org' });
    const updated = await app.call(
      '/user/api/updateUserData',
      {
        id: member.id,
        firstName: 'Mira',
        lastName: 'Stone',
        email: 'mia@example.org',
        pseudo: 'mira',
        phone_number: '+33 6',
        password: '',
        mapRight: true,
      },
      admin.token,
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ success: true, result: 'User updated successfully' });
    expect(updated.body.res).toMatchObject({
      firstName: 'Mira',
      display_name: 'Mira Stone',
      pseudo: 'mira',
      mapRight: true,
    });
    await signIn(app, 'mia@example.org', 'old-password-1');

    const taken = await app.call(
      '/user/api/updateUserData',
      { id: member.id, firstName: 'Mira', lastName: 'Stone', email: other.identifier },
      admin.token,
    );
    expect(taken.status).toBe(409);
    const blank = await app.call(
      '/user/api/updateUserData',
      { id: member.id, firstName: '  ', lastName: 'S' },
      admin.token,
    );
    expect(blank.status).toBe(400);
    expect(blank.body.result).toMatch(/firstName/);
    const missing = await app.call('/user/api/updateUserData', { id: 999, firstName: 'A', lastName: 'B' }, admin.token);
    expect(missing.status).toBe(404);
  });

  it('changes a password and verifies the caller password', async () => {
    const member = await createMember(app, admin, { password: 'old-password-1' });
    expect(
      (await app.call('/user/api/updatePasswordUser', { id: member.id, password: 'new-password-1' }, admin.token))
        .status,
    ).toBe(200);
    await expect(signIn(app, member.identifier, 'old-password-1')).rejects.toThrow();
    await signIn(app, member.identifier, 'new-password-1');

    const right = await app.call('/user/api/verifyPassword', { id: admin.id, password: 'admin-secret-1' }, admin.token);
    expect(right.body).toEqual({ success: true, result: true });
    const wrong = await app.call('/user/api/verifyPassword', { id: admin.id, password: 'bad' }, admin.token);
    expect(wrong.body).toEqual({ success: true, result: false });
    // Nobody checks someone else's password.
    expect(
      (await app.call('/user/api/verifyPassword', { id: member.id, password: 'new-password-1' }, admin.token)).status,
    ).toBe(403);
  });

  it('deletes a user, revoking its sessions, and refuses to delete oneself', async () => {
    const member = await createMember(app, admin);
    const removed = await app.call('/user/api/deleteUser', { UserId: member.id }, admin.token);
    expect(removed.body).toMatchObject({ success: true });
    expect((await app.call('/user/api/isValidToken', { token: member.token })).status).toBe(401);
    expect((await app.call('/user/api/getUserById/', { userId: member.id }, admin.token)).status).toBe(404);
    expect((await app.call('/user/api/deleteUser', { UserId: member.id }, admin.token)).status).toBe(404);
    expect((await app.call('/user/api/deleteUser', { UserId: admin.id }, admin.token)).status).toBe(409);
  });

  it('stores a photo URL and refuses other schemes', async () => {
    const ok = await app.call(
      '/user/api/uploadUserPhoto',
      { userId: admin.id, photo_url: 'https://cdn.example.org/a.png' },
      admin.token,
    );
    expect(ok.status).toBe(200);
    expect((await app.call('/user/api/getUserById/', { userId: admin.id }, admin.token)).body.res.photo_url).toBe(
      'https://cdn.example.org/a.png',
    );
    const script = await app.call(
      '/user/api/uploadUserPhoto',
      { userId: admin.id, photo_url: 'javascript:alert(1)' },
      admin.token,
    );
    expect(script.status).toBe(400);
  });

  it('imports users with the rules of spec section 5 and reports each row', async () => {
    const ops = await seedChannel(app, 'Ops');
    const base = {
      firstName: 'Ann',
      lastName: 'Lee',
      identifier: 'ann@example.org',
      pseudo: 'ann',
      password: 'ann-password-1',
      mapRight: 'vrai',
    };
    await createMember(app, admin, { email: 'old@example.org' });
    const response = await app.call(
      '/user/api/createMultipleUsers',
      {
        userData: [
          { ...base, 'Liste canal': 'Ops; Unknown' },
          { ...base, 'Liste canal': 'Ops; Unknown' }, // exact duplicate: removed
          { ...base, identifier: 'bob@example.org', firstName: 'Bob', mapRight: 'FAUX' },
          { ...base, identifier: 'old@example.org' }, // exists already
          { ...base, identifier: 'blank@example.org', pseudo: '   ' }, // blank field
          { ...base, identifier: 'nomap@example.org', mapRight: '' }, // missing mapRight
          { ...base, identifier: 'ANN@example.org', firstName: 'Other' }, // same login twice in the file
        ],
      },
      admin.token,
    );
    expect(response.status).toBe(200);
    const report = response.body.createdUsers;
    expect(report.added.map((r: { identifier: string }) => r.identifier).sort()).toEqual([
      'ann@example.org',
      'bob@example.org',
    ]);
    expect(report.alreadyExisting.map((r: { identifier: string }) => r.identifier).sort()).toEqual([
      'ANN@example.org',
      'old@example.org',
    ]);
    expect(report.notAdded.map((r: { identifier: string }) => r.identifier).sort()).toEqual([
      'blank@example.org',
      'nomap@example.org',
    ]);
    expectNoSecrets(response.body);

    const users = (await app.call('/user/api/getAllUsers', {}, admin.token)).body.res;
    const ann = users.find((u: { identifier: string }) => u.identifier === 'ann@example.org');
    expect(ann).toMatchObject({ mapRight: true, role: 'member', channels: [{ id: ops, name: 'Ops' }] });
    expect(users.find((u: { identifier: string }) => u.identifier === 'bob@example.org').mapRight).toBe(false);
    await signIn(app, 'ann@example.org', 'ann-password-1');
  });

  it('puts a user in channels by name and removes it from all of them', async () => {
    const a = await seedChannel(app, 'Alpha');
    const b = await seedChannel(app, 'Bravo');
    const member = await createMember(app, admin, { email: 'mia@example.org' });
    const add = await app.call(
      '/user/api/updateUserChannelsByChannelName/',
      { userIdentifier: 'mia@example.org', channelNames: 'Alpha;Bravo;Nope' },
      admin.token,
    );
    expect(add.status).toBe(200);
    // Adding twice keeps one membership.
    await app.call(
      '/user/api/updateUserChannelsByChannelName/',
      { userIdentifier: 'mia@example.org', channelNames: ['Alpha'] },
      admin.token,
    );
    let user = (await app.call('/user/api/getUserById/', { userId: member.id }, admin.token)).body.res;
    expect(user.channels.map((c: { id: number }) => c.id).sort()).toEqual([a, b].sort());

    expect(
      (await app.call('/user/api/removeUserChannels/', { userIdentifier: 'mia@example.org' }, admin.token)).status,
    ).toBe(200);
    user = (await app.call('/user/api/getUserById/', { userId: member.id }, admin.token)).body.res;
    expect(user.channels).toEqual([]);
    expect(
      (await app.call('/user/api/removeUserChannels/', { userIdentifier: 'ghost@example.org' }, admin.token)).status,
    ).toBe(404);
  });
});
