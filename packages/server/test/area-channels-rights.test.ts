/**
 * "An area is a place, not a power" (issue 69 item 3): a dispatcher whose phone reports a position inside an area
 * channel's zone becomes a member there with a member's rights only (listen, talk, chat), never a dispatcher's.
 * Over those the area brought in (or anyone of the channel) he reads no device, opens no microphone, asks no
 * video, raises no SOS, follows no trail, calls nobody privately, sets no status, regroups nobody and switches
 * nobody's channel, and his consoles are not told of their devices. A dispatcher the administrator added by hand
 * keeps his rights: the refusals are the area's membership's, not the role's.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { databases } from './harness.ts';
import type { TestClient } from './realtime-harness.ts';
import { world } from './world.ts';

const CENTRE = { lat: 45.764, lng: 4.8357 };
const INSIDE = { lat: CENTRE.lat + 10 / 111_195, lng: CENTRE.lng, accuracy: 10 };
const DEVICE = {
  battery: { level: 0.8, charging: false },
  network: { online: true, effectiveType: '4g' },
  visible: true,
  wakeLock: false,
  position: null,
  appVersion: '2.0.2',
  push: false,
};

describe.each(databases)('an area channel’s dispatcher on %s', { timeout: 60_000 }, (dialect) => {
  const w = world(dialect, {
    people: {
      /** A member who walks into the zone. */
      bob: { role: 'member', firstName: 'Bob', lastName: 'Field', mapRight: true },
      /** A dispatcher whose phone says he is in the zone: the spoofed area member. */
      eve: { role: 'dispatcher', firstName: 'Eve', lastName: 'Spoof', mapRight: true },
      /** The area channel's own dispatcher, added by hand. */
      dana: { role: 'dispatcher', firstName: 'Dana', lastName: 'Desk' },
    },
  });
  let areaId: number;

  const inZone = async (client: TestClient) => {
    expect(await client.emitAck('onLocationChanged', INSIDE)).toMatchObject({ success: true });
    await client.next('onChannelsChanged');
  };
  const byEve = (path: string, body: object) => w.app.call(`/user/api/${path}`, body, w.eve.token);

  beforeEach(async () => {
    const { app, admin, dana } = w;
    const fence = await app.call(
      '/user/api/createGeofence',
      { name: 'Depot', shape: { type: 'circle', ...CENTRE, radiusM: 300 } },
      admin.token,
    );
    const area = await app.call(
      '/user/api/createChannel',
      { channelName: 'Depot area', areaGeofenceId: fence.body.res.id },
      admin.token,
    );
    areaId = area.body.res.id;
    expect(
      (await app.call('/user/api/addUserToChannel', { userId: dana.id, channelId: areaId }, admin.token)).status,
    ).toBe(200);
    expect((await app.call('/user/api/setSafetySettings', { ambientListening: 'announced' }, admin.token)).status).toBe(
      200,
    );
  });

  it('gives him what a member has there, and no power over those in the zone', async () => {
    const { app, admin, bob, eve, dana } = w;
    const bobPhone = await w.open(bob, { talkPage: true });
    await inZone(bobPhone);
    const evePhone = await w.open(eve, { talkPage: true });
    await inZone(evePhone);
    const members = (await app.call('/user/api/getAreaMembers', { channelId: areaId }, admin.token)).body.res;
    expect(members.map((m: { userId: number; membership: string }) => [m.userId, m.membership])).toEqual(
      expect.arrayContaining([
        [bob.id, 'area'],
        [eve.id, 'area'],
      ]),
    );

    // A member's rights: he hears, talks and chats there.
    expect((await byEve('getchannelmessagelistForAdmin', { channelId: areaId })).status).toBe(200);
    expect((await byEve('sendMessageToChannel', { channelId: areaId, message: 'On site' })).status).toBe(200);
    const room = (await app.services.channels.byId(areaId))?.rtcSession;
    expect(await evePhone.emitAck('join_room', { room, mode: 'talk' })).toMatchObject({ success: true });

    // No dispatcher's right over Bob, whom he meets only there.
    const refused = async (path: string, body: object) => {
      const answer = await byEve(path, body);
      expect({ path, status: answer.status }).toEqual({ path, status: 403 });
    };
    await refused('getDeviceStatus', { userId: bob.id });
    await refused('requestDeviceStatus', { userId: bob.id });
    await refused('startAmbientListening', { userId: bob.id });
    await refused('requestVideo', { userId: bob.id, channelId: areaId });
    await refused('sendEmergencyAlert', { userId: bob.id, channelId: areaId });
    await refused('getPositionHistory', { userId: bob.id });
    await refused('startPrivateCall', { userId: bob.id });
    await refused('selectChannelFor', { userId: bob.id, channelId: areaId });
    await refused('createRegroup', { name: 'Spoofed', userIds: [bob.id] });
    await refused('createRegroup', { name: 'Spoofed', userIds: [], channelIds: [areaId] });
    const to = new Date().toISOString();
    await refused('getReport', { from: new Date(Date.now() - 3600_000).toISOString(), to, channelIds: [areaId] });
    const ambients = (await app.services.audit.page({ start: 0, limit: 50 })).entries.filter((e) =>
      e.action.startsWith('ambient.'),
    );
    expect(ambients).toEqual([]);
    const alerts = (await app.call('/user/api/getEmergencyAlerts', { start: 0, limit: 10 }, admin.token)).body.res;
    expect(alerts.totalRecords).toBe(0);

    // His consoles are not told of Bob's device, as the channel's own dispatcher's are.
    const eveConsole = await w.open(eve);
    const danaConsole = await w.open(dana);
    await eveConsole.flush();
    await danaConsole.flush();
    expect(await bobPhone.emitAck('device_status', DEVICE)).toEqual({ success: true });
    expect(await danaConsole.next('device_status')).toMatchObject({ userId: bob.id });
    await eveConsole.flush();
    expect(eveConsole.all('device_status')).toEqual([]);

    // The channel's dispatcher added by hand keeps his: the refusals are the area's membership's.
    expect((await app.call('/user/api/getDeviceStatus', { userId: bob.id }, dana.token)).status).toBe(200);
    expect((await app.call('/user/api/getPositionHistory', { userId: bob.id }, dana.token)).status).toBe(200);
  });

  it('gives him his rights back once an administrator adds him by hand', async () => {
    const { app, admin, bob, eve } = w;
    const bobPhone = await w.open(bob, { talkPage: true });
    await inZone(bobPhone);
    await inZone(await w.open(eve, { talkPage: true }));
    expect((await byEve('getDeviceStatus', { userId: bob.id })).status).toBe(403);
    expect(
      (await app.call('/user/api/addUserToChannel', { userId: eve.id, channelId: areaId }, admin.token)).status,
    ).toBe(200);
    expect((await byEve('getDeviceStatus', { userId: bob.id })).status).toBe(200);
  });
});
