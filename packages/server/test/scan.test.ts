/**
 * Scan (issue 34): while /talk is open a member hears every one of its channels except those it took out of the
 * scan, a choice kept per user on the server. The list follows getMyChannels (all scanned by default), taking a
 * channel out and putting it back, pushed to the member's sockets only, a channel not the member's (404), what
 * the calls check, and the rows going with a membership's or a channel's end.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Account, createMember, databases, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, listen, type TestClient } from './realtime-harness.ts';

describe.each(databases)('scan list on %s', (dialect) => {
  let app: TestApp;
  let url: string;
  let admin: Account;
  let mia: Account;
  let noe: Account;
  let alpha: { id: number };
  let bravo: { id: number };
  let charlie: { id: number };
  const clients: TestClient[] = [];

  const scanList = (account: Account) => app.call('/user/api/getScanList', {}, account.token);
  const setScan = (account: Account, body: object) => app.call('/user/api/setChannelScan', body, account.token);
  const offRows = () =>
    app.services.db.selectFrom('scan_off').select(['user_id', 'channel_id']).orderBy('channel_id').execute();

  async function socketOf(account: Account): Promise<TestClient> {
    const client = await connect(url, account.token);
    clients.push(client);
    return client;
  }

  beforeEach(async () => {
    app = await startApp(dialect);
    url = await listen(app);
    admin = await signUpAdmin(app);
    mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Scanner' });
    noe = await createMember(app, admin, { firstName: 'Noe', lastName: 'Other' });
    // Created out of name order: the list follows getMyChannels's (by name).
    charlie = (await app.call('/user/api/createChannel', { channelName: 'Charlie' }, admin.token)).body.res;
    alpha = (await app.call('/user/api/createChannel', { channelName: 'Alpha' }, admin.token)).body.res;
    bravo = (await app.call('/user/api/createChannel', { channelName: 'Bravo' }, admin.token)).body.res;
    await app.services.memberships.add(alpha.id, [mia.id, noe.id]);
    await app.services.memberships.add(bravo.id, [mia.id]);
    await app.services.memberships.add(charlie.id, [mia.id, noe.id]);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await app.close();
  });

  it('lists each of getMyChannels’s channels, all scanned until the member takes one out, and puts it back', async () => {
    const mine = (await app.call('/user/api/getMyChannels', {}, mia.token)).body.res.map((c: { id: number }) => c.id);
    expect(mine).toEqual([alpha.id, bravo.id, charlie.id]);
    expect((await scanList(mia)).body).toEqual({
      success: true,
      res: mine.map((channelId: number) => ({ channelId, scan: true })),
    });

    expect((await setScan(mia, { channelId: bravo.id, scan: false })).body).toEqual({ success: true });
    expect((await scanList(mia)).body.res).toEqual([
      { channelId: alpha.id, scan: true },
      { channelId: bravo.id, scan: false },
      { channelId: charlie.id, scan: true },
    ]);
    // Twice the same choice: still one row.
    expect((await setScan(mia, { channelId: bravo.id, scan: false })).status).toBe(200);
    expect(await offRows()).toEqual([{ user_id: mia.id, channel_id: bravo.id }]);
    // Another member's list is its own.
    expect((await scanList(noe)).body.res).toEqual([
      { channelId: alpha.id, scan: true },
      { channelId: charlie.id, scan: true },
    ]);

    expect((await setScan(mia, { channelId: bravo.id, scan: true })).status).toBe(200);
    expect((await scanList(mia)).body.res.every((entry: { scan: boolean }) => entry.scan)).toBe(true);
    expect(await offRows()).toEqual([]);
    // Putting back a channel that was scanned changes nothing.
    expect((await setScan(mia, { channelId: alpha.id, scan: true })).status).toBe(200);
  });

  it('tells every socket of the member, and no other member’s', async () => {
    const phone = await socketOf(mia);
    const laptop = await socketOf(mia);
    const other = await socketOf(noe);
    expect((await setScan(mia, { channelId: alpha.id, scan: false })).status).toBe(200);
    expect(await phone.next('scanListChanged')).toEqual({ channelId: alpha.id, scan: false });
    expect(await laptop.next('scanListChanged')).toEqual({ channelId: alpha.id, scan: false });
    await setScan(mia, { channelId: alpha.id, scan: true });
    expect(await laptop.next('scanListChanged')).toEqual({ channelId: alpha.id, scan: true });
    await other.flush();
    expect(other.all('scanListChanged')).toEqual([]);
  });

  it('refuses a channel that is not the member’s, and checks what it is sent', async () => {
    const phone = await socketOf(noe);
    const refused = await setScan(noe, { channelId: bravo.id, scan: false });
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ success: false, code: 'channel_not_found' });
    expect((await setScan(noe, { channelId: 999999, scan: false })).status).toBe(404);
    expect(await offRows()).toEqual([]);
    await phone.flush();
    expect(phone.all('scanListChanged')).toEqual([]);

    for (const body of [
      {},
      { channelId: alpha.id },
      { scan: false },
      { channelId: 'x', scan: false },
      { channelId: alpha.id, scan: 'no' },
      { channelId: -1, scan: false },
    ])
      expect((await setScan(mia, body)).status, JSON.stringify(body)).toBe(400);
    expect(await offRows()).toEqual([]);

    expect((await app.call('/user/api/getScanList', {})).status).toBe(401);
    expect((await app.call('/user/api/setChannelScan', { channelId: alpha.id, scan: false })).status).toBe(401);
  });

  it('follows the member’s channels: one it left is no longer listed, a deleted channel takes its rows', async () => {
    await setScan(mia, { channelId: alpha.id, scan: false });
    await setScan(mia, { channelId: bravo.id, scan: false });
    await setScan(noe, { channelId: alpha.id, scan: false });

    const removed = await app.call(
      '/user/api/deleteUserFromChannel',
      { userId: mia.id, channelId: bravo.id },
      admin.token,
    );
    expect(removed.status).toBe(200);
    expect((await scanList(mia)).body.res).toEqual([
      { channelId: alpha.id, scan: false },
      { channelId: charlie.id, scan: true },
    ]);
    // No longer the member's: a choice about it is refused.
    expect((await setScan(mia, { channelId: bravo.id, scan: true })).status).toBe(404);

    expect((await app.call('/user/api/deleteChannel', { channelId: alpha.id }, admin.token)).status).toBe(200);
    expect((await offRows()).filter((row) => row.channel_id === alpha.id)).toEqual([]);
    expect((await scanList(mia)).body.res).toEqual([{ channelId: charlie.id, scan: true }]);
    expect((await scanList(noe)).body.res).toEqual([{ channelId: charlie.id, scan: true }]);
  });
});
