/**
 * Device status (issue 60 item 4): /talk's `device_status` is validated, kept as the member's latest and pushed to
 * the consoles that watch the member; getDeviceStatus reads it (null before any report); requestDeviceStatus
 * reaches the member's open /talk (not its console; an older /talk once it reported), which answers; only an
 * administrator or a dispatcher of one of the member's channels may do either, down the ranks (issue 69).
 */
import { describe, expect, it } from 'vitest';
import { type Account, databases } from './harness.ts';
import { eventually } from './realtime-harness.ts';
import { createWithRole } from './role-fixtures.ts';
import { world } from './world.ts';

const REPORT = {
  battery: { level: 0.12, charging: false },
  network: { online: true, effectiveType: '4g' },
  visible: false,
  wakeLock: true,
  position: { accuracy: 8, at: '2026-11-28T01:00:00.000Z' },
  appVersion: '2.0.2+abc123',
  push: true,
};

describe.each(databases)('device status on %s', (dialect) => {
  const w = world(dialect, {
    people: {
      mia: { role: 'member', firstName: 'Mia', lastName: 'Field' },
      olaf: { role: 'member', firstName: 'Olaf', lastName: 'Field' },
      dispatcher: { role: 'dispatcher' },
      otherDispatcher: { role: 'dispatcher' },
    },
    channels: {
      field: { name: 'Field Team', members: ['mia', 'olaf', 'dispatcher'] },
      depot: { name: 'Depot', members: ['otherDispatcher'] },
    },
  });

  /** `talkPage`: the member's /talk, which "the member's app is open" counts (a console does not). */
  const open = (account: Account, talkPage = false) => w.open(account, { talkPage });

  it('answers null before any report, then keeps the latest with its time and pushes it to the watching consoles', async () => {
    const { app, admin, mia, dispatcher, otherDispatcher } = w;
    const before = await app.call('/user/api/getDeviceStatus', { userId: mia.id }, dispatcher.token);
    expect(before.status).toBe(200);
    expect(before.body.res).toBeNull();

    const console = await open(dispatcher);
    const adminConsole = await open(admin);
    const outsider = await open(otherDispatcher);
    const phone = await open(mia, true);
    const sentAt = Date.now();
    expect(await phone.emitAck('device_status', REPORT)).toEqual({ success: true });

    const pushed = await console.next('device_status');
    expect(pushed).toMatchObject({ ...REPORT, userId: mia.id, appOpen: true });
    expect(await adminConsole.next('device_status')).toMatchObject({ userId: mia.id });
    await outsider.flush();
    expect(outsider.all('device_status')).toEqual([]);

    const read = await app.call('/user/api/getDeviceStatus', { userId: mia.id }, dispatcher.token);
    expect(read.status).toBe(200);
    expect(read.body.res).toMatchObject({ ...REPORT, userId: mia.id, appOpen: true });
    expect(Date.parse(read.body.res.reportedAt)).toBeGreaterThanOrEqual(sentAt - 1000);

    // A second report replaces the first; once the page is gone, the report stays and says the app is not open.
    expect(
      await phone.emitAck('device_status', { ...REPORT, battery: { level: 0.9, charging: true }, visible: true }),
    ).toEqual({ success: true });
    phone.close();
    await expect
      .poll(async () => (await app.call('/user/api/getDeviceStatus', { userId: mia.id }, admin.token)).body.res, {
        timeout: 15_000,
      })
      .toMatchObject({ battery: { level: 0.9, charging: true }, visible: true, appOpen: false });
  });

  it('refuses a bad report with a clear answer, keeps the socket, and stores nothing', async () => {
    const { app, admin, mia } = w;
    const phone = await open(mia, true);
    const bad: Array<[unknown, string]> = [
      [{ ...REPORT, battery: { level: 7, charging: false } }, 'battery.level'],
      [{ ...REPORT, network: { online: 'yes' } }, 'network.online'],
      [{ ...REPORT, visible: undefined }, 'visible'],
      [{ ...REPORT, appVersion: 'x'.repeat(10_000) }, 'appVersion'],
      [{ ...REPORT, position: { accuracy: 5, at: 'yesterday' } }, 'position.at'],
      ['not an object', 'device_status'],
    ];
    for (const [payload, field] of bad) {
      const answer = await phone.emitAck('device_status', payload);
      expect(answer.success, field).toBe(false);
      expect(answer.result).toContain('device_status');
      expect(answer.result).toContain(field);
    }
    expect(phone.socket.connected).toBe(true);
    expect((await app.call('/user/api/getDeviceStatus', { userId: mia.id }, admin.token)).body.res).toBeNull();
    // The socket still works after the refusals.
    expect(await phone.emitAck('device_status', REPORT)).toEqual({ success: true });
  });

  it("requestDeviceStatus reaches the member's open page, which answers within 5 s", async () => {
    const { app, admin, mia, olaf, dispatcher } = w;
    const console = await open(dispatcher);
    const phone = await open(mia, true);
    // What /talk does: answer each request with a fresh report.
    phone.socket.on('device_status_request', () =>
      phone.socket.emit('device_status', { ...REPORT, battery: { level: 0.55, charging: true } }),
    );
    const asked = await app.call('/user/api/requestDeviceStatus', { userId: mia.id }, dispatcher.token);
    expect(asked.status).toBe(200);
    expect(asked.body.res).toEqual({ userId: mia.id, appOpen: true });
    const answered = await console.next('device_status', (status) => status.battery?.level === 0.55);
    expect(answered).toMatchObject({ userId: mia.id, appOpen: true });
    const read = await app.call('/user/api/getDeviceStatus', { userId: mia.id }, dispatcher.token);
    expect(read.body.res.battery).toEqual({ level: 0.55, charging: true });

    // No page open: nothing to ask, and the answer says so.
    const closed = await app.call('/user/api/requestDeviceStatus', { userId: olaf.id }, admin.token);
    expect(closed.status).toBe(200);
    expect(closed.body.res).toEqual({ userId: olaf.id, appOpen: false });
  });

  it("counts only the member's /talk as its app open: not its console, but an older /talk once it reports", async () => {
    const { app, admin, mia, dispatcher } = w;
    const appOpen = async () =>
      (await app.call('/user/api/requestDeviceStatus', { userId: mia.id }, dispatcher.token)).body.res.appOpen;
    // Mia's console (no `app: 'talk'` in its handshake) is connected: her app is not open, and it is not asked.
    const miaConsole = await open(mia);
    expect(await appOpen()).toBe(false);
    await miaConsole.flush();
    expect(miaConsole.all('device_status_request')).toEqual([]);

    // An older /talk does not say so in its handshake: once it reports its device, it counts.
    expect(await miaConsole.emitAck('device_status', REPORT)).toEqual({ success: true });
    expect(await appOpen()).toBe(true);
    expect((await app.call('/user/api/getDeviceStatus', { userId: mia.id }, admin.token)).body.res.appOpen).toBe(true);
    miaConsole.close();
    await eventually(async () => (await appOpen()) === false, 'her page gone');
    expect((await app.call('/user/api/getDeviceStatus', { userId: mia.id }, admin.token)).body.res.appOpen).toBe(false);

    // A /talk that says so counts at once, before any report.
    await open(mia, true);
    expect(await appOpen()).toBe(true);
  });

  it('is for administrators and the dispatchers of the member’s channels only', async () => {
    const { app, admin, mia, olaf, dispatcher, otherDispatcher } = w;
    const phone = await open(mia, true);
    for (const path of ['/user/api/requestDeviceStatus', '/user/api/getDeviceStatus']) {
      const otherDesk = await app.call(path, { userId: mia.id }, otherDispatcher.token);
      expect(otherDesk.status, `${path} other dispatcher`).toBe(403);
      expect(otherDesk.body.success).toBe(false);
      const member = await app.call(path, { userId: mia.id }, olaf.token);
      expect(member.status, `${path} member`).toBe(403);
      const self = await app.call(path, { userId: mia.id }, mia.token);
      expect(self.status, `${path} self`).toBe(403);
      expect((await app.call(path, { userId: mia.id })).status).toBe(401);
      expect((await app.call(path, { userId: 'abc' }, admin.token)).status).toBe(400);
      expect((await app.call(path, { userId: 999_999 }, admin.token)).status).toBe(404);
      // A dispatcher learns nothing of a user outside its channels, not even that it does not exist.
      expect((await app.call(path, { userId: 999_999 }, dispatcher.token)).status).toBe(403);
    }
    // A refused request asks the phone nothing.
    await phone.flush();
    expect(phone.all('device_status_request')).toEqual([]);
  });

  it('goes down the ranks (issue 69): not to a dispatcher’s or an administrator’s device, nor one’s own', async () => {
    const { app, admin, mia, dispatcher } = w;
    const chief = await createWithRole(app, admin, 'admin');
    const peer = await createWithRole(app, admin, 'dispatcher');
    const field = (await app.services.memberships.channelsOfMember(mia.id))[0];
    await app.services.memberships.add(field.id, [chief.id, peer.id]);
    const chiefPhone = await open(chief, true);
    expect(await chiefPhone.emitAck('device_status', REPORT)).toEqual({ success: true });
    for (const path of ['/user/api/requestDeviceStatus', '/user/api/getDeviceStatus']) {
      for (const [target, caller] of [
        [chief, dispatcher],
        [peer, dispatcher],
        [admin, admin],
      ] as const) {
        const refused = await app.call(path, { userId: target.id }, caller.token);
        expect(refused.status, `${path} ${target.id} by ${caller.id}`).toBe(403);
        expect(refused.body.code).toBe('role_not_below_yours');
      }
      // An administrator reads another's.
      expect((await app.call(path, { userId: chief.id }, admin.token)).status).toBe(200);
    }
    expect((await app.call('/user/api/getDeviceStatus', { userId: chief.id }, admin.token)).body.res).toMatchObject({
      userId: chief.id,
      appOpen: true,
    });
    // Only the administrator's own request reached the phone.
    expect(await chiefPhone.next('device_status_request')).toBeUndefined();
    await chiefPhone.flush();
    expect(chiefPhone.all('device_status_request')).toHaveLength(1);
  });
});
