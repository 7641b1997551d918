/**
 * An import an administrator can trust (issue 17 point 5): a reason on every row not added, unknown channels
 * reported or created on request, and an update mode matched by login (a blank password keeps the old one)
 * with "updated" as a fourth group.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Account, databases, signIn, signUpAdmin, startApp, type TestApp } from './harness.ts';

const PASSWORD = 'Import-pass-2025';
const row = (fields: Record<string, unknown>) => ({
  firstName: 'Ana',
  lastName: 'Lopez',
  identifier: 'ana@example.org',
  pseudo: 'ana',
  password: PASSWORD,
  mapRight: 'faux',
  canal: '',
  ...fields,
});

describe.each(databases)('user import on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
  });
  afterEach(async () => {
    await app.close();
  });

  const importRows = (userData: object[], options: object = {}) =>
    app.call('/user/api/createMultipleUsers', { userData, ...options }, admin.token);

  it('says why each row was not added or already exists, and reports unknown channels', async () => {
    await app.call('/user/api/createChannel', { channelName: 'Night Shift' }, admin.token);
    const answer = await importRows([
      row({ identifier: 'ok@example.org', canal: 'Night  Shift;Day Shift' }),
      row({ identifier: 'blank@example.org', lastName: '  ' }),
      row({ identifier: 'not-a-login' }),
      row({ identifier: 'map@example.org', mapRight: 'perhaps' }),
      row({ identifier: 'OK@example.org', firstName: 'Other' }),
      row({ identifier: admin.identifier }),
    ]);
    expect(answer.status).toBe(200);
    const report = answer.body.createdUsers;
    expect(report.added.map((r: { identifier: string }) => r.identifier)).toEqual(['ok@example.org']);
    expect(report.notAdded.map((r: { reason: string; field: string }) => [r.reason, r.field])).toEqual([
      ['empty_field', 'lastName'],
      ['invalid_login', 'identifier'],
      ['bad_map_right', 'mapRight'],
    ]);
    expect(report.alreadyExisting.map((r: { reason: string }) => r.reason)).toEqual(['duplicate', 'exists']);
    expect(JSON.stringify(report)).not.toContain(PASSWORD);
    // The channel that exists (however spaced) is joined; the one that does not is reported, not created.
    expect(report.unknownChannels).toEqual(['Day Shift']);
    const channels = (await app.call('/user/api/getAllChannels', {}, admin.token)).body.res;
    expect(channels.map((c: { name: string }) => c.name)).toEqual(['Night Shift']);
    expect(channels[0].users.map((u: { identifier: string }) => u.identifier)).toEqual(['ok@example.org']);
  });

  it('creates the unknown channels when asked, and records their creation', async () => {
    const answer = await importRows([row({ canal: 'Day Shift; Relief ' })], { createChannels: true });
    expect(answer.body.createdUsers.createdChannels).toEqual(['Day Shift', 'Relief']);
    expect(answer.body.createdUsers.unknownChannels).toEqual([]);
    const channels = (await app.call('/user/api/getAllChannels', {}, admin.token)).body.res;
    expect(channels.map((c: { name: string; users: unknown[] }) => [c.name, c.users.length]).sort()).toEqual([
      ['Day Shift', 1],
      ['Relief', 1],
    ]);
    const log = (await app.call('/user/api/getAllActivities/', { type: 'channel_creation' }, admin.token)).body.res;
    expect(log.totalRecords).toBe(2);
  });

  it('updates users matched by login in update mode; a blank password keeps the old one', async () => {
    await importRows([row({}), row({ identifier: 'bo@example.org', firstName: 'Bo' })]);
    await app.call('/user/api/createChannel', { channelName: 'Ops' }, admin.token);
    const answer = await importRows(
      [
        row({ firstName: 'Ana Maria', mapRight: 'vrai', password: '', canal: 'Ops' }),
        row({ identifier: 'bo@example.org', firstName: 'Bo', password: 'Brand-new-pass-77' }),
        row({ identifier: 'new@example.org', firstName: 'Neo' }),
        row({ identifier: 'nopass@example.org', password: '' }),
      ],
      { mode: 'update' },
    );
    const report = answer.body.createdUsers;
    expect(report.updated.map((r: { identifier: string }) => r.identifier)).toEqual([
      'ana@example.org',
      'bo@example.org',
    ]);
    expect(report.added.map((r: { identifier: string }) => r.identifier)).toEqual(['new@example.org']);
    // A new user still needs a password.
    expect(report.notAdded).toMatchObject([
      { identifier: 'nopass@example.org', reason: 'empty_field', field: 'password' },
    ]);
    expect(report.alreadyExisting).toEqual([]);

    const users = (await app.call('/user/api/getAllUsers', {}, admin.token)).body.res;
    expect(users.find((u: { identifier: string }) => u.identifier === 'ana@example.org')).toMatchObject({
      firstName: 'Ana Maria',
      mapRight: true,
    });
    // Ana kept her password; Bo has the new one.
    await expect(signIn(app, 'ana@example.org', PASSWORD)).resolves.toMatchObject({ identifier: 'ana@example.org' });
    await expect(signIn(app, 'bo@example.org', 'Brand-new-pass-77')).resolves.toMatchObject({ id: expect.any(Number) });
    const ops = (await app.call('/user/api/getAllChannels', {}, admin.token)).body.res[0];
    expect(ops.users.map((u: { identifier: string }) => u.identifier)).toEqual(['ana@example.org']);

    // Without update mode, the same rows are only reported as existing.
    const again = await importRows([row({ firstName: 'Changed' })]);
    expect(again.body.createdUsers.alreadyExisting).toMatchObject([{ reason: 'exists' }]);
    expect(again.body.createdUsers.updated).toEqual([]);
  });
});
