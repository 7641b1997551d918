/**
 * The dispatch console's server side (issue 27): the monitor list saved per user (only channels it may
 * monitor), patches on the media planes (409 without a media server; with one, stored, shown, logged and
 * audited), and the all call: one floor decision per channel, preempting members, refused to members.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../src/http/errors.ts';
import { type PatchPlane, patchRoutes } from '../src/patches/routes.ts';
import { type Account, databases } from './harness.ts';
import { world } from './world.ts';

describe.each(databases)('the dispatch console on %s', (dialect) => {
  const w = world(dialect, {
    people: {
      desk: { role: 'dispatcher', firstName: 'Dana', lastName: 'Desk' },
      otherDesk: { role: 'dispatcher', firstName: 'Olly', lastName: 'Other' },
      mia: { role: 'member', firstName: 'Mia', lastName: 'Field' },
    },
    channels: {
      alpha: { name: 'alpha', members: ['desk', 'mia'], overHttp: true },
      bravo: { name: 'bravo', members: ['desk', 'mia'], overHttp: true },
      charlie: { name: 'charlie', members: ['desk', 'mia'], overHttp: true },
      delta: { name: 'delta', members: ['otherDesk'], overHttp: true },
    },
  });

  describe('the monitor list', () => {
    const set = (account: Account, body: object) => w.app.call('/user/api/setMonitorList', body, account.token);
    const get = (account: Account, body: object = {}) => w.app.call('/user/api/getMonitorList', body, account.token);

    it('opens a desk never saved on the channels it dispatches (issue 70), an administrator’s on none', async () => {
      const { admin, desk, otherDesk, alpha, bravo, charlie, delta } = w;
      const first = (await get(desk)).body;
      expect(first).toMatchObject({ success: true, unselectedVolume: 40 });
      expect(first.res).toEqual(
        [alpha.id, bravo.id, charlie.id].map((channelId) => ({
          channelId,
          volume: 100,
          muted: false,
        })),
      );
      expect((await get(otherDesk)).body.res).toEqual([{ channelId: delta.id, volume: 100, muted: false }]);
      expect((await get(admin)).body.res).toEqual([]);
      // Saved empty, it stays empty: the default is for a first desk only.
      expect((await set(desk, { channels: [], unselectedVolume: 40 })).status).toBe(200);
      expect((await get(desk)).body.res).toEqual([]);
    });

    it('keeps each desk its tiles in order, with volumes, mutes and the unselected level', async () => {
      const { app, admin, desk, alpha, bravo, charlie } = w;
      const saved = await set(desk, {
        channels: [
          { channelId: charlie.id, volume: 70, muted: true },
          { channelId: alpha.id, volume: 100 },
          { channelId: bravo.id, volume: '55', muted: 'false' },
        ],
        unselectedVolume: 25,
      });
      expect(saved.status).toBe(200);
      expect(saved.body.code).toBe('monitor_list_saved');
      const expected = [
        { channelId: charlie.id, volume: 70, muted: true },
        { channelId: alpha.id, volume: 100, muted: false },
        { channelId: bravo.id, volume: 55, muted: false },
      ];
      // Another desk (a new session of the same user) finds it as it was left.
      const again = await app.call('/user/api/login', { user_email: desk.identifier, user_password: desk.password });
      expect((await get({ ...desk, token: again.body.user.authToken })).body).toMatchObject({
        res: expected,
        unselectedVolume: 25,
      });
      // Removed from a channel: its tile is gone from the list.
      await app.call('/user/api/deleteUserFromChannel', { userId: desk.id, channelId: alpha.id }, admin.token);
      expect((await get(desk)).body.res.map((entry: { channelId: number }) => entry.channelId)).toEqual([
        charlie.id,
        bravo.id,
      ]);
    });

    it('takes only channels the desk may monitor, volumes from 0 to 100, each channel once', async () => {
      const { admin, desk, alpha, delta } = w;
      const other = await set(desk, { channels: [{ channelId: delta.id }], unselectedVolume: 40 });
      expect(other.status).toBe(403);
      expect(other.body.code).toBe('not_channel_member');
      const loud = await set(desk, { channels: [{ channelId: alpha.id, volume: 101 }], unselectedVolume: 40 });
      expect(loud.status).toBe(400);
      expect(loud.body.result).toMatch(/^channels\.0\.volume: /);
      const twice = await set(desk, {
        channels: [{ channelId: alpha.id }, { channelId: alpha.id }],
        unselectedVolume: 40,
      });
      expect(twice.status).toBe(400);
      expect(twice.body.result).toContain('a channel is listed twice');
      expect((await set(desk, { channels: [], unselectedVolume: -1 })).status).toBe(400);
      // An administrator monitors any channel; a missing one is a 404.
      expect((await set(admin, { channels: [{ channelId: delta.id }], unselectedVolume: 10 })).status).toBe(200);
      expect((await set(admin, { channels: [{ channelId: 99999 }], unselectedVolume: 10 })).status).toBe(404);
    });

    it("is one's own: a member has none, a desk reads no other's, an administrator reads anyone's", async () => {
      const { admin, desk, otherDesk, mia, alpha } = w;
      await set(desk, { channels: [{ channelId: alpha.id, volume: 80 }], unselectedVolume: 30 });
      const member = await get(mia);
      expect(member.status).toBe(403);
      expect(member.body.code).toBe('not_allowed');
      expect((await get(mia, { userId: desk.id })).status).toBe(403);
      const nosy = await get(otherDesk, { userId: desk.id });
      expect(nosy.status).toBe(403);
      expect(nosy.body.code).toBe('own_account_only');
      expect((await get(admin, { userId: desk.id })).body).toMatchObject({
        res: [{ channelId: alpha.id, volume: 80, muted: false }],
        unselectedVolume: 30,
      });
      expect((await set(mia, { channels: [], unselectedVolume: 30 })).status).toBe(403);
    });
  });

  describe('patches', () => {
    it('answers 409 with a clear sentence without a media server, and refuses members and strangers', async () => {
      const { app, desk, otherDesk, mia, alpha, bravo } = w;
      const body = { channelIds: [alpha.id, bravo.id] };
      const refused = await app.call('/user/api/patchChannels', body, desk.token);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ success: false, code: 'patch_unavailable' });
      expect(refused.body.result).toContain('only through the media server');
      expect((await app.call('/user/api/patchChannels', body, mia.token)).body.code).toBe('not_allowed');
      expect((await app.call('/user/api/patchChannels', body, otherDesk.token)).body.code).toBe('not_channel_member');
      const one = await app.call('/user/api/patchChannels', { channelIds: [alpha.id] }, desk.token);
      expect(one.status).toBe(400);
      expect(one.body.result).toContain('channelIds: name at least two channels');
      expect((await app.call('/user/api/unpatchChannels', { patchId: 1 }, mia.token)).status).toBe(403);
      expect((await app.call('/user/api/unpatchChannels', { patchId: 1 }, desk.token)).status).toBe(404);
      expect((await app.call('/user/api/getPatches', {}, desk.token)).body.res).toEqual([]);
    });

    describe('with a media server that patches', () => {
      let withMedia: FastifyInstance;
      const joined: Array<{ patchId: string; channelIds: number[] }> = [];
      const undone: string[] = [];
      const plane: PatchPlane = {
        canPatch: (list) => list.every((channel) => channel.voiceMode !== 'mesh'),
        async patch(patchId, list) {
          joined.push({ patchId, channelIds: list.map((channel) => channel.id) });
        },
        async unpatch(patchId) {
          undone.push(patchId);
        },
      };
      const call = async (path: string, body: object, account: Account) => {
        const response = await withMedia.inject({
          method: 'POST',
          url: path,
          headers: { 'x-access-token': account.token },
          payload: body,
        });
        return { status: response.statusCode, body: response.json() };
      };

      beforeEach(async () => {
        joined.length = 0;
        undone.length = 0;
        // The patch calls on the same services, with the media planes' patching seam in the media server's place.
        withMedia = Fastify();
        registerErrorHandler(withMedia);
        withMedia.setValidatorCompiler(validatorCompiler);
        withMedia.setSerializerCompiler(serializerCompiler);
        withMedia.decorate('auditing', w.app.services.auditing);
        patchRoutes(withMedia, w.app.services, plane);
        await withMedia.ready();
      });
      afterEach(async () => {
        await withMedia.close();
      });

      it('patches channels until unpatched: stored, shown to their desks, logged and audited', async () => {
        const { app, admin, desk, otherDesk, alpha, bravo, charlie, delta } = w;
        const made = await call('/user/api/patchChannels', { channelIds: [alpha.id, bravo.id] }, desk);
        expect(made.status).toBe(200);
        expect(made.body.code).toBe('channels_patched');
        const { patchId } = made.body.res;
        expect(joined).toEqual([{ patchId: String(patchId), channelIds: [alpha.id, bravo.id] }]);
        // What the Janus plane reads to join them again after a restart.
        expect(await app.services.patches.active()).toEqual([
          { patchId, channelIds: [alpha.id, bravo.id].sort((a, b) => a - b) },
        ]);
        const listed = (await app.call('/user/api/getPatches', {}, desk.token)).body.res;
        expect(listed).toEqual([
          {
            patchId,
            channels: [
              { id: alpha.id, name: 'alpha' },
              { id: bravo.id, name: 'bravo' },
            ],
            createdAt: expect.any(String),
            createdBy: { id: desk.id, display_name: 'Dana Desk' },
          },
        ]);
        expect((await app.call('/user/api/getPatches', {}, otherDesk.token)).body.res).toEqual([]);
        expect((await app.call('/user/api/getPatches', {}, admin.token)).body.res).toHaveLength(1);

        // A channel is in one patch at a time.
        const again = await call('/user/api/patchChannels', { channelIds: [charlie.id, bravo.id] }, desk);
        expect(again.status).toBe(409);
        expect(again.body).toMatchObject({ code: 'channel_already_patched', result: expect.stringContaining('bravo') });

        // A peer-to-peer channel cannot be patched.
        await app.call(
          '/user/api/updateChannel',
          { channelId: charlie.id, channelName: 'charlie', voiceMode: 'mesh' },
          admin.token,
        );
        expect((await call('/user/api/patchChannels', { channelIds: [charlie.id, delta.id] }, admin)).body.code).toBe(
          'patch_unavailable',
        );

        expect((await call('/user/api/unpatchChannels', { patchId }, otherDesk)).status).toBe(403);
        const removed = await call('/user/api/unpatchChannels', { patchId }, desk);
        expect(removed.body.code).toBe('channels_unpatched');
        expect(undone).toEqual([String(patchId)]);
        expect((await app.call('/user/api/getPatches', {}, desk.token)).body.res).toEqual([]);

        const log = (await app.call('/user/api/getAllActivities/', { start: 0, limit: 50 }, admin.token)).body.res
          .activities as Array<{ type: string; channel: { name: string } }>;
        const of = (type: string) =>
          log
            .filter((a) => a.type === type)
            .map((a) => a.channel.name)
            .sort();
        expect(of('channel_patch')).toEqual(['alpha', 'bravo']);
        expect(of('channel_unpatch')).toEqual(['alpha', 'bravo']);
        const audit = (await app.call('/user/api/getAuditLog', { actorId: desk.id }, admin.token)).body.res.entries;
        expect(audit.map((entry: { action: string }) => entry.action)).toEqual(['channel.unpatch', 'channel.patch']);
      });

      it('drops a patch left with one channel when the other is deleted', async () => {
        const { app, admin, alpha, delta } = w;
        const { patchId } = (await call('/user/api/patchChannels', { channelIds: [alpha.id, delta.id] }, admin)).body
          .res;
        await app.call('/user/api/deleteChannel', { channelId: delta.id }, admin.token);
        await expect
          .poll(async () => (await app.call('/user/api/getPatches', {}, admin.token)).body.res, { timeout: 10_000 })
          .toEqual([]);
        // The app's own patch calls hear the deletion too (on the same bus, with the real media planes): either
        // may undo it first, so only the outcome is checked here.
        expect(await app.services.patches.byId(patchId)).toBeUndefined();
      });
    });
  });

  describe('the all call', () => {
    const online = async (account: Account, rooms: Array<{ room: string; mode: 'talk' | 'listen' }>) => {
      const client = await w.open(account, { pushesOnce: true });
      for (const { room, mode } of rooms)
        expect((await client.emitAck('join_room', { room, mode })).success).toBe(true);
      return client;
    };
    const talk = (name: string) => ({ room: name, mode: 'talk' as const });

    it('takes the floor of every channel asked in one step each, preempting a member, and gives them back', async () => {
      const { desk, mia } = w;
      const member = await online(mia, [talk('alpha')]);
      const dispatcher = await online(desk, [talk('alpha'), talk('bravo'), talk('charlie')]);
      expect(await member.emitAck('floor_request', { room: 'alpha' })).toEqual({
        granted: true,
        grantId: expect.any(String),
      });

      const answer = await dispatcher.emitAck('broadcast_request', { rooms: ['alpha', 'bravo', 'charlie'] });
      expect(answer).toEqual({ granted: ['alpha', 'bravo', 'charlie'], refused: [], grantId: expect.any(String) });
      expect(await member.next('floor_revoked')).toEqual({
        room: 'alpha',
        reason: 'preempted',
        by: { userId: desk.id, name: 'Dana Desk' },
      });
      for (const room of ['alpha', 'bravo', 'charlie'])
        expect(
          await dispatcher.next('floor_taken', (taken) => taken.room === room && taken.userId === desk.id),
        ).toMatchObject({ name: 'Dana Desk' });
      // The member cannot take it back while the all call goes on: it waits in the channel's queue (issue 59).
      expect(await member.emitAck('floor_request', { room: 'alpha' })).toEqual({
        granted: false,
        queued: true,
        position: 1,
        holder: { userId: desk.id, name: 'Dana Desk' },
      });

      dispatcher.socket.emit('broadcast_release', { rooms: ['alpha', 'bravo', 'charlie'] });
      for (const room of ['alpha', 'bravo', 'charlie'])
        await dispatcher.next('floor_idle', (idle) => idle.room === room);
      // The freed floor is offered to the member who waits (issue 59); its press confirms the offer.
      const offer = await member.next('floor_granted');
      expect(offer).toEqual({
        room: 'alpha',
        reason: 'queue',
        grantId: expect.any(String),
        acceptMs: 3000,
        until: expect.any(String),
      });
      expect(await member.emitAck('floor_request', { room: 'alpha' })).toEqual({
        granted: true,
        grantId: expect.any(String),
      });
    });

    it('says why a channel was refused: busy with a higher priority, listening, or not joined', async () => {
      const { admin, desk } = w;
      const boss = await online(admin, [talk('bravo')]);
      const dispatcher = await online(desk, [talk('alpha'), talk('bravo'), { room: 'charlie', mode: 'listen' }]);
      expect(await boss.emitAck('floor_request', { room: 'bravo' })).toEqual({
        granted: true,
        grantId: expect.any(String),
      });
      const answer = await dispatcher.emitAck('broadcast_request', { rooms: ['alpha', 'bravo', 'charlie', 'delta'] });
      expect(answer).toEqual({
        granted: ['alpha'],
        grantId: expect.any(String),
        refused: [
          { room: 'bravo', reason: 'busy', holder: { userId: admin.id, name: 'Ada Admin' } },
          { room: 'charlie', reason: 'listen_only' },
          { room: 'delta', reason: 'not_joined' },
        ],
      });
    });

    it('is refused to a member', async () => {
      const { mia } = w;
      const member = await online(mia, [talk('alpha'), talk('bravo')]);
      const answer = await member.emitAck('broadcast_request', { rooms: ['alpha', 'bravo'] });
      expect(answer).toEqual({ success: false, result: 'broadcast_request: your role does not allow an all call.' });
      expect(await member.emitAck('floor_request', { room: 'alpha' })).toEqual({
        granted: true,
        grantId: expect.any(String),
      });
    });
  });
});
