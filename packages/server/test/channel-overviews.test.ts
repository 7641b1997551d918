/**
 * The channels without their member lists (issue 18: getChannelOverviews) and the ids of a channel's members
 * (getUserIds with channelId): what the console's channel lists and dialogs read at any size of organisation.
 */
import { GetChannelOverviews } from '@talkgroup/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

describe.each(databases)('channel overviews on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  let mia: Account;
  let noor: Account;
  let red: { id: number };
  let blue: { id: number };

  beforeAll(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
    mia = await createMember(app, admin, { firstName: 'Mia' });
    noor = await createMember(app, admin, { firstName: 'Noor' });
    red = await app.services.channels.create('Red Team');
    blue = await app.services.channels.create('Blue Team');
    await app.services.memberships.add(red.id, [admin.id, mia.id, noor.id]);
    await app.services.memberships.add(blue.id, [mia.id]);
  });
  afterAll(async () => {
    await app.close();
  });

  it("gives every channel with getAllChannels' fields, the number of its members instead of their list", async () => {
    const overviews = await app.call('/user/api/getChannelOverviews', {}, admin.token);
    expect(overviews.status).toBe(200);
    expect(GetChannelOverviews.response.parse(overviews.body)).toBeTruthy();
    const all = await app.call('/user/api/getAllChannels', {}, admin.token);
    expect(overviews.body.res.map((c: { id: number }) => c.id)).toEqual(all.body.res.map((c: { id: number }) => c.id));
    for (const channel of all.body.res) {
      const { users, talking: _, ...rest } = channel;
      const overview = overviews.body.res.find((c: { id: number }) => c.id === channel.id);
      expect(overview).toEqual({ ...rest, usersCount: users.length });
    }
    expect(overviews.body.res.find((c: { id: number }) => c.id === red.id).usersCount).toBe(3);
    expect(JSON.stringify(overviews.body)).not.toContain(mia.identifier);
  });

  it("gives the ids of a channel's members, searched or not", async () => {
    const ids = (body: object) => app.call('/user/api/getUserIds', body, admin.token);
    expect((await ids({ channelId: red.id })).body.res).toEqual([admin.id, mia.id, noor.id].sort((a, b) => a - b));
    expect((await ids({ channelId: blue.id })).body.res).toEqual([mia.id]);
    expect((await ids({ channelId: red.id, search: 'noor' })).body.res).toEqual([noor.id]);
    expect((await ids({ channelId: 999_999 })).body.res).toEqual([]);
    expect((await ids({ channelId: 'red' })).status).toBe(400);
  });

  it('is for administrators only', async () => {
    expect((await app.call('/user/api/getChannelOverviews', {}, mia.token)).status).toBe(403);
    expect((await app.call('/user/api/getUserIds', { channelId: red.id }, mia.token)).status).toBe(403);
  });
});
