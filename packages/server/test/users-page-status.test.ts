/**
 * The paged users list filtered by status (issue 49: "Filtrer par statut" past USERS_PAGED_ABOVE users):
 * getUsersPage and getUserIds keep the users with one status, or those without one (statusId null), and count
 * only them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

describe.each(databases)('paged users by status on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  let mia: Account;
  let noe: Account;
  let lou: Account;
  let onScene: number;
  let enRoute: number;

  beforeAll(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
    mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Field', pseudo: 'mia' });
    noe = await createMember(app, admin, { firstName: 'Noé', lastName: 'Field', pseudo: 'noe' });
    lou = await createMember(app, admin, { firstName: 'Lou', lastName: 'Bay', pseudo: 'lou' });
    const statuses = (await app.call('/user/api/listStatuses', {}, admin.token)).body.res as Array<{
      id: number;
      label: { fr: string };
    }>;
    const id = (fr: string) => statuses.find((status) => status.label.fr === fr)?.id as number;
    [onScene, enRoute] = [id('Sur place'), id('En route')];
    for (const [user, statusId] of [
      [mia, onScene],
      [lou, onScene],
      [noe, enRoute],
    ] as const) {
      const set = await app.call('/user/api/setUserStatus', { userId: user.id, statusId }, admin.token);
      expect(set.status).toBe(200);
    }
  });
  afterAll(async () => {
    await app.close();
  });

  const page = async (body: object) => {
    const answer = await app.call('/user/api/getUsersPage', { limit: 50, ...body }, admin.token);
    expect(answer.status).toBe(200);
    const res = answer.body.res as { users: Array<{ id: number }>; totalRecords: number };
    return { ids: res.users.map((user) => user.id).sort((a, b) => a - b), total: res.totalRecords };
  };
  const sorted = (...ids: number[]) => ids.sort((a, b) => a - b);

  it('keeps the users with that status, and counts only them', async () => {
    expect(await page({ statusId: onScene })).toEqual({ ids: sorted(mia.id, lou.id), total: 2 });
    expect(await page({ statusId: enRoute })).toEqual({ ids: [noe.id], total: 1 });
  });

  it('keeps the users without a status with null, and everyone without the field', async () => {
    expect(await page({ statusId: null })).toEqual({ ids: [admin.id], total: 1 });
    expect((await page({})).total).toBe(4);
  });

  it('filters a search too, and the ids of select-all', async () => {
    expect(await page({ search: 'field', statusId: onScene })).toEqual({ ids: [mia.id], total: 1 });
    const ids = await app.call('/user/api/getUserIds', { search: 'field', statusId: enRoute }, admin.token);
    expect(ids.body.res).toEqual([noe.id]);
    const none = await app.call('/user/api/getUserIds', { statusId: null }, admin.token);
    expect(none.body.res).toEqual([admin.id]);
  });

  it('follows a cleared status', async () => {
    await app.call('/user/api/setUserStatus', { userId: lou.id, statusId: null }, admin.token);
    expect(await page({ statusId: onScene })).toEqual({ ids: [mia.id], total: 1 });
    expect(await page({ statusId: null })).toEqual({ ids: sorted(admin.id, lou.id), total: 2 });
  });
});
