/**
 * The users list a page at a time (issue 18: getUsersPage, getUserIds): the console's tables use them past
 * USERS_PAGED_ABOVE users. Pages keep getAllUsers' fields, search folds case and accents, sorting is the
 * server's, and only administrators may ask.
 */
import { GetUsersPage } from '@talkgroup/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Account,
  createMember,
  databases,
  expectNoSecrets,
  signUpAdmin,
  startApp,
  type TestApp,
} from './harness.ts';

describe.each(databases)('paged users on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  let helene: Account;
  let bruno: Account;
  let zoe: Account;
  let percent: Account;

  beforeAll(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
    helene = await createMember(app, admin, { firstName: 'Hélène', lastName: 'Dupré', pseudo: 'lena' });
    bruno = await createMember(app, admin, { firstName: 'bruno', lastName: 'Martin', pseudo: 'bm' });
    zoe = await createMember(app, admin, { firstName: 'Zoé', lastName: 'Martin', pseudo: 'zz' });
    percent = await createMember(app, admin, { firstName: 'Cent', lastName: '100%', pseudo: 'under_score' });
  });
  afterAll(async () => {
    await app.close();
  });

  const page = (body: object, token = admin.token) => app.call('/user/api/getUsersPage', body, token);
  const ids = (answer: { body: { res: { users: Array<{ id: number }> } } }) => answer.body.res.users.map((u) => u.id);

  it('gives the newest users first by default, a page at a time, with the count of all', async () => {
    const first = await page({ start: 0, limit: 2 });
    expect(first.status).toBe(200);
    expect(first.body.success).toBe(true);
    expect(first.body.res.totalRecords).toBe(5);
    expect(ids(first)).toEqual([percent.id, zoe.id]);
    const second = await page({ start: 2, limit: 2 });
    expect(ids(second)).toEqual([bruno.id, helene.id]);
    const last = await page({ start: 4, limit: 2 });
    expect(ids(last)).toEqual([admin.id]);
    expect((await page({ start: 10, limit: 2 })).body.res).toEqual({ users: [], totalRecords: 5 });
  });

  it("keeps getAllUsers' fields for each user, and no secret", async () => {
    const all = await app.call('/user/api/getAllUsers', {}, admin.token);
    const paged = await page({ limit: 10 });
    expect(GetUsersPage.response.parse(paged.body)).toBeTruthy();
    for (const user of paged.body.res.users) {
      expect(user).toEqual(all.body.res.find((u: { id: number }) => u.id === user.id));
    }
    expectNoSecrets(paged.body);
  });

  it('searches first names, last names, logins, pseudos and full names, whatever the case and the accents', async () => {
    const search = async (text: string) => ids(await page({ search: text, limit: 50 })).sort((a, b) => a - b);
    expect(await search('helene')).toEqual([helene.id]);
    expect(await search('DUPRE')).toEqual([helene.id]);
    expect(await search('  lena ')).toEqual([helene.id]);
    expect(await search('zoe martin')).toEqual([zoe.id]);
    expect(await search('martin')).toEqual([bruno.id, zoe.id].sort((a, b) => a - b));
    expect(await search(admin.identifier)).toEqual([admin.id]);
    expect(await search('nobody like this')).toEqual([]);
    const counted = await page({ search: 'martin', limit: 1 });
    expect(counted.body.res.totalRecords).toBe(2);
    expect(counted.body.res.users).toHaveLength(1);
  });

  it('takes %, _ and \\ in a search literally', async () => {
    expect(ids(await page({ search: '100%' }))).toEqual([percent.id]);
    expect(ids(await page({ search: 'under_score' }))).toEqual([percent.id]);
    expect(ids(await page({ search: '%' }))).toEqual([percent.id]);
    expect(ids(await page({ search: 'under%score' }))).toEqual([]);
    expect(ids(await page({ search: 'r_s' }))).toEqual([percent.id]);
    expect(ids(await page({ search: 'x\\' }))).toEqual([]);
  });

  it('sorts by a column either way, names without regard to case', async () => {
    const byFirstName = ids(await page({ sort: 'firstName', direction: 'asc', limit: 10 }));
    // Ada, bruno, Cent, Hélène, Zoé
    expect(byFirstName).toEqual([admin.id, bruno.id, percent.id, helene.id, zoe.id]);
    expect(ids(await page({ sort: 'firstName', direction: 'desc', limit: 10 }))).toEqual([...byFirstName].reverse());
    const byPseudo = ids(await page({ sort: 'pseudo', direction: 'asc', limit: 10 }));
    expect(byPseudo).toEqual([admin.id, bruno.id, helene.id, percent.id, zoe.id]);
  });

  it('sorts by last activity', async () => {
    // Signing in is each user's latest activity: Zoé signs in again last.
    await app.call('/user/api/login', { user_email: zoe.identifier, user_password: zoe.password });
    const latestFirst = ids(await page({ sort: 'lastActivity', direction: 'desc', limit: 10 }));
    expect(latestFirst[0]).toBe(zoe.id);
    const oldestFirst = ids(await page({ sort: 'lastActivity', direction: 'asc', limit: 10 }));
    expect(oldestFirst[oldestFirst.length - 1]).toBe(zoe.id);
  });

  it('finds a user by its new name once renamed, and no longer by the old one', async () => {
    const renamed = await app.call(
      '/user/api/updateUserData',
      { id: bruno.id, firstName: 'Brunö', lastName: 'Lefèvre', pseudo: 'bl' },
      admin.token,
    );
    expect(renamed.status).toBe(200);
    expect(ids(await page({ search: 'lefevre' }))).toEqual([bruno.id]);
    expect(ids(await page({ search: 'martin' }))).toEqual([zoe.id]);
  });

  it('gives the ids of every user a search keeps', async () => {
    const all = await app.call('/user/api/getUserIds', {}, admin.token);
    expect(all.status).toBe(200);
    expect(all.body.res).toEqual([admin.id, helene.id, bruno.id, zoe.id, percent.id].sort((a, b) => a - b));
    const some = await app.call('/user/api/getUserIds', { search: 'HÉLÈNE' }, admin.token);
    expect(some.body.res).toEqual([helene.id]);
  });

  it('refuses members and bad requests with clear answers', async () => {
    expect((await page({}, helene.token)).status).toBe(403);
    expect((await app.call('/user/api/getUserIds', {}, helene.token)).status).toBe(403);
    expect((await app.call('/user/api/getUsersPage', {})).status).toBe(401);
    for (const bad of [{ limit: 0 }, { limit: 1001 }, { start: -1 }, { sort: 'password_hash' }, { direction: 'up' }]) {
      const answer = await page(bad);
      expect(answer.status).toBe(400);
      expect(answer.body.success).toBe(false);
      expect(answer.body.result).toMatch(/limit|start|sort|direction/);
    }
    expect((await page({ search: 'x'.repeat(201) })).status).toBe(400);
  });
});
