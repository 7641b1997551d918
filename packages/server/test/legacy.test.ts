import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Account,
  createMember,
  databases,
  expectNoSecrets,
  signUpAdmin,
  startApp,
  type TestApp,
} from './harness.ts';

describe.each(databases)('legacy calls on %s', (dialect) => {
  let app: TestApp;
  let admin: Account;
  let member: Account;
  beforeEach(async () => {
    app = await startApp(dialect);
    admin = await signUpAdmin(app);
    member = await createMember(app, admin);
  });
  afterEach(async () => {
    await app.close();
  });

  const getMaterialTypes = (token?: string) =>
    app.fastify.inject({
      method: 'GET',
      url: '/device/getAllMaterialTypes/',
      headers: token ? { 'x-access-token': token } : {},
    });

  it('lists the material types by name', async () => {
    const at = new Date().toISOString();
    await app.services.db
      .insertInto('material_types')
      .values([
        { name: 'Radio', created_at: at },
        { name: 'Phone', created_at: at },
      ])
      .execute();
    const listed = await getMaterialTypes(admin.token);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual({
      success: true,
      res: [
        { id: expect.any(Number), name: 'Phone', createdAt: at },
        { id: expect.any(Number), name: 'Radio', createdAt: at },
      ],
    });
    expect((await getMaterialTypes()).statusCode).toBe(401);
    expect((await getMaterialTypes(member.token)).statusCode).toBe(403);
  });

  it('finds a device by its MAC address, whatever the case and separators', async () => {
    const at = new Date().toISOString();
    await app.services.db
      .insertInto('devices')
      .values({
        display_name: 'Base radio',
        mac_address: '00:1A:2B:3C:4D:5E',
        type: 'radio',
        manufacturer: 'Acme',
        product_ref: 'R-100',
        created_at: at,
      })
      .execute();
    for (const macAddress of ['00:1A:2B:3C:4D:5E', '00-1a-2b-3c-4d-5e', ' 001a2b3c4d5e ']) {
      const found = await app.call('/device/getDeviceByMacAddress', { macAddress }, admin.token);
      expect(found.status, macAddress).toBe(200);
      expect(found.body).toEqual({
        success: true,
        res: {
          id: expect.any(Number),
          display_name: 'Base radio',
          mac_address: '00:1A:2B:3C:4D:5E',
          type: 'radio',
          manufacturer: 'Acme',
          product_ref: 'R-100',
          createdAt: at,
        },
      });
    }
    const unknown = await app.call('/device/getDeviceByMacAddress', { macAddress: '00:00:00:00:00:01' }, admin.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ success: false, result: 'Device not found.', code: 'device_not_found' });
    const invalid = await app.call('/device/getDeviceByMacAddress', { macAddress: 'not a mac' }, admin.token);
    expect(invalid.status).toBe(400);
    expect(invalid.body.result).toMatch(/^macAddress: /);
    const mixed = await app.call('/device/getDeviceByMacAddress', { macAddress: '00:1A-2B:3C:4D:5E' }, admin.token);
    expect(mixed.status).toBe(400);
  });

  it('reads call events from the recorded talk bursts', async () => {
    const channel = (await app.call('/user/api/createChannel', { channelName: 'Alpha' }, admin.token)).body.res;
    const bursts = await app.services.db
      .insertInto('talk_bursts')
      .values([
        {
          user_id: member.id,
          channel_id: channel.id,
          channel_name: 'Alpha',
          started_at: '2026-01-01T10:00:00.000Z',
          ended_at: '2026-01-01T10:00:05.000Z',
        },
        {
          user_id: member.id,
          channel_id: channel.id,
          channel_name: 'Alpha',
          started_at: '2026-01-01T11:00:00.000Z',
          ended_at: null,
        },
        {
          user_id: admin.id,
          channel_id: channel.id,
          channel_name: 'Alpha',
          started_at: '2026-01-01T12:00:00.000Z',
          ended_at: '2026-01-01T12:00:01.000Z',
        },
      ])
      .returning('id')
      .execute();
    const events = await app.call('/user/api/getUserCallEvents', { userId: member.id }, admin.token);
    expect(events.status).toBe(200);
    expect(events.body.res).toEqual([
      {
        id: bursts[1].id,
        userId: member.id,
        channelId: channel.id,
        channelName: 'Alpha',
        startedAt: '2026-01-01T11:00:00.000Z',
        endedAt: null,
      },
      {
        id: bursts[0].id,
        userId: member.id,
        channelId: channel.id,
        channelName: 'Alpha',
        startedAt: '2026-01-01T10:00:00.000Z',
        endedAt: '2026-01-01T10:00:05.000Z',
      },
    ]);
    const ended = await app.call('/user/api/getUserEndCallEventsByCallId', { callId: bursts[0].id }, admin.token);
    expect(ended.body.res).toEqual([
      expect.objectContaining({ id: bursts[0].id, endedAt: '2026-01-01T10:00:05.000Z' }),
    ]);
    const running = await app.call('/user/api/getUserEndCallEventsByCallId', { callId: bursts[1].id }, admin.token);
    expect(running.body).toEqual({ success: true, res: [] });
    const unknown = await app.call('/user/api/getUserEndCallEventsByCallId', { callId: 99999 }, admin.token);
    expect(unknown.status).toBe(404);
    const missing = await app.call('/user/api/getUserCallEvents', {}, admin.token);
    expect(missing.status).toBe(400);
    expect(missing.body.result).toMatch(/^userId: /);
    expectNoSecrets(events.body);
  });

  it.each([
    ['/user/api/getSentInvitation', { aUserId: 1 }],
    ['/user/api/getmyfriendlists', { idUser: 1 }],
    ['/user/api/getinvitationlists', { idUser: 1 }],
  ])('answers %s with 410 Gone and a clear sentence, after checking the token', async (path, body) => {
    for (const token of [admin.token, member.token]) {
      const gone = await app.call(path, body, token);
      expect(gone.status).toBe(410);
      expect(gone.body).toEqual({
        success: false,
        result: expect.stringMatching(/not part of Talkgroup/),
        code: 'legacy_gone',
      });
    }
    expect((await app.call(path, body)).status).toBe(401);
  });
});
