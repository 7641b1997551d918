/**
 * Issue 17 point 6: names that look alike are the same name. Channel and user names are stored trimmed with
 * inner runs of whitespace collapsed, by every call that writes them (imports included), and two channel names
 * that differ only by spaces cannot both exist.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Account, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';

describe.each(databases)('names on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
  });
  afterEach(async () => {
    await app.close();
  });

  const channelNames = async () =>
    (await app.call('/user/api/getAllChannels', {}, admin.token)).body.res.map((c: { name: string }) => c.name).sort();

  it('stores a channel name tidied and refuses one that differs only by spaces, on create, rename and import', async () => {
    const created = await app.call('/user/api/createChannel', { channelName: '  North \t  Side ' }, admin.token);
    expect(created.body.res).toMatchObject({ name: 'North Side', rtcSession: 'NorthSide' });
    const twin = await app.call('/user/api/createChannel', { channelName: 'North  Side' }, admin.token);
    expect(twin.status).toBe(409);
    expect(twin.body.code).toBe('channel_name_taken');

    const other = await app.call('/user/api/createChannel', { channelName: 'South' }, admin.token);
    const renamed = await app.call(
      '/user/api/updateChannel',
      { channelId: other.body.res.id, channelName: ' South   Gate ' },
      admin.token,
    );
    expect(renamed.body.res.name).toBe('South Gate');

    const imported = await app.call(
      '/user/api/createMultipleChannels',
      { channelData: [{ name: ' East   Wing ' }, { name: 'East Wing' }, { name: 'North   Side' }] },
      admin.token,
    );
    expect(imported.body.channelsCreated.added.map((row: { name: string }) => row.name)).toEqual(['East Wing']);
    expect(imported.body.channelsCreated.alreadyExisting).toEqual([{ name: 'North   Side' }]);
    expect(await channelNames()).toEqual(['East Wing', 'North Side', 'South Gate']);
  });

  it('stores user names tidied from the dialogs and from an import, whose channels match however spaced', async () => {
    const created = await app.call(
      '/user/api/signUpUser',
      {
        firstName: ' Jean  Paul ',
        lastName: 'Martin\t ',
        pseudo: '  jp  ',
        email: 'jp@example.org',
        password: 'long-enough-pw-12',
      },
      admin.token,
    );
    expect(created.body.user).toMatchObject({ firstName: 'Jean Paul', lastName: 'Martin', pseudo: 'jp' });
    const updated = await app.call(
      '/user/api/updateUserData',
      { id: created.body.user.id, firstName: 'Jean   Pierre', lastName: ' Martin ' },
      admin.token,
    );
    expect(updated.body.res).toMatchObject({ firstName: 'Jean Pierre', lastName: 'Martin' });

    await app.call('/user/api/createChannel', { channelName: 'Night Shift' }, admin.token);
    const imported = await app.call(
      '/user/api/createMultipleUsers',
      {
        userData: [
          {
            firstName: ' Ana  Maria ',
            lastName: 'Lopez ',
            identifier: 'ana@example.org',
            pseudo: ' ana ',
            password: 'long-enough-pw-12',
            mapRight: 'faux',
            canal: ' Night   Shift ',
          },
        ],
      },
      admin.token,
    );
    expect(imported.body.createdUsers.added).toHaveLength(1);
    const users = (await app.call('/user/api/getAllUsers', {}, admin.token)).body.res;
    expect(users.find((u: { identifier: string }) => u.identifier === 'ana@example.org')).toMatchObject({
      firstName: 'Ana Maria',
      lastName: 'Lopez',
      pseudo: 'ana',
    });
    const channels = (await app.call('/user/api/getAllChannels', {}, admin.token)).body.res;
    expect(channels[0].users.map((u: { identifier: string }) => u.identifier)).toEqual(['ana@example.org']);
  });
});
