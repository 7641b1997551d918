/**
 * The paged users list by role (issue 58: the users table's "Rôle" column past USERS_PAGED_ABOVE users):
 * getUsersPage keeps the users of one role, counts only them and sorts by role; getUserIds filters the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

describe.each(databases)('paged users by role on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  let dana: Account;
  let mia: Account;
  let lou: Account;

  beforeAll(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
    dana = await createMember(app, admin, { firstName: 'Dana', lastName: 'Desk', pseudo: 'dana' });
    mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Field', pseudo: 'mia' });
    lou = await createMember(app, admin, { firstName: 'Lou', lastName: 'Field', pseudo: 'lou' });
    const made = await app.call(
      '/user/api/updateUserData',
      { id: dana.id, firstName: 'Dana', lastName: 'Desk', role: 'dispatcher' },
      admin.token,
    );
    expect(made.status).toBe(200);
  });
  afterAll(async () => {
    await app.close();
  });

  const page = async (body: object) => {
    const answer = await app.call('/user/api/getUsersPage', { limit: 50, ...body }, admin.token);
    expect(answer.status).toBe(200);
    const res = answer.body.res as { users: Array<{ id: number; role: string }>; totalRecords: number };
    return { ids: res.users.map((user) => user.id).sort((a, b) => a - b), total: res.totalRecords, users: res.users };
  };

  it('keeps the users of that role, and counts only them', async () => {
    expect(await page({ role: 'dispatcher' })).toMatchObject({ ids: [dana.id], total: 1 });
    expect(await page({ role: 'admin' })).toMatchObject({ ids: [admin.id], total: 1 });
    expect(await page({ role: 'member' })).toMatchObject({ ids: [mia.id, lou.id].sort((a, b) => a - b), total: 2 });
    const wrong = await app.call('/user/api/getUsersPage', { role: 'pilot' }, admin.token);
    expect(wrong.status).toBe(400);
  });

  it('sorts by role', async () => {
    const { users } = await page({ sort: 'role', direction: 'asc' });
    expect(users.map((user) => user.role)).toEqual(['admin', 'dispatcher', 'member', 'member']);
  });

  it('filters a search and the ids of select-all', async () => {
    expect(await page({ search: 'field', role: 'member' })).toMatchObject({ total: 2 });
    const ids = await app.call('/user/api/getUserIds', { search: 'd', role: 'dispatcher' }, admin.token);
    expect(ids.body.res).toEqual([dana.id]);
  });
});
