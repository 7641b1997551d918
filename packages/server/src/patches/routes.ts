/**
 * Patches (issue 27, docs/api.md "Dispatch console"): two or more channels joined so that what is said in one
 * is heard in the others, until unpatched. The media server does the joining (PatchPlane: real time's media
 * planes); without one, or with a peer-to-peer channel among them, the call answers 409 with a clear sentence.
 */
import { GetPatches, PatchChannels, UnpatchChannels } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { ActivityStore } from '../activities/store.ts';
import type { SessionStore } from '../auth/sessions.ts';
import type { ChannelAccess } from '../channels/access.ts';
import type { ChannelSummary } from '../channels/store.ts';
import { isUniqueViolation } from '../db/unique.ts';
import type { EventBus } from '../events.ts';
import { conflict, notFound } from '../http/errors.ts';
import { said } from '../http/messages.ts';
import { defineRoutes } from '../http/route.ts';
import type { UserStore } from '../users/store.ts';
import type { PatchStore } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface PatchRoutesServices {
  access: ChannelAccess;
  activities: ActivityStore;
  events: EventBus;
  patches: PatchStore;
  sessions: SessionStore;
  users: UserStore;
}

/** What patching needs of the media planes (real time's MediaPlanes has it). */
export interface PatchPlane {
  canPatch(channels: Array<Pick<ChannelSummary, 'voiceMode'>>): boolean;
  patch(patchId: string, channels: Array<Pick<ChannelSummary, 'id' | 'voiceMode'>>): Promise<void>;
  unpatch(patchId: string): Promise<void>;
}

export function patchRoutes(app: FastifyInstance, services: PatchRoutesServices, plane: PatchPlane): void {
  const { access, patches, activities, events, users } = services;
  const route = defineRoutes(app, services.sessions);

  async function record(type: 'channel_patch' | 'channel_unpatch', userId: number | null, channels: ChannelSummary[]) {
    for (const channel of channels)
      await activities.record(type, { userId, channelId: channel.id, channelName: channel.name });
  }

  route(PatchChannels, async ({ body, auth }) => {
    const channels: ChannelSummary[] = [];
    for (const channelId of body.channelIds) {
      const { channel } = await access.require(auth, channelId, 'channel.patch');
      if (channel.hidden) throw notFound('channel_not_found');
      channels.push(channel);
    }
    if (!plane.canPatch(channels)) throw conflict('patch_unavailable');
    const patched = await patches.patchedAmong(body.channelIds);
    const taken = channels.find((channel) => patched.has(channel.id));
    if (taken) throw conflict('channel_already_patched', { name: taken.name });
    const user = await users.row(auth.userId);
    let patchId: number;
    try {
      patchId = await patches.create(body.channelIds, { userId: auth.userId, name: user?.display_name ?? '' });
    } catch (error) {
      // Another desk patched one of them at the same moment.
      if (isUniqueViolation(error)) throw conflict('channel_already_patched', { name: channels[0].name });
      throw error;
    }
    try {
      await plane.patch(String(patchId), channels);
    } catch (error) {
      await patches.remove(patchId);
      if (!plane.canPatch(channels)) throw conflict('patch_unavailable');
      throw error;
    }
    await record('channel_patch', auth.userId, channels);
    events.emit('patchesChanged', { channelIds: body.channelIds });
    return { success: true, ...said('channels_patched'), res: { patchId } };
  });

  route(UnpatchChannels, async ({ body, auth }) => {
    const patch = await patches.byId(body.patchId);
    if (!patch) throw notFound('patch_not_found');
    // One undoes a patch only where it may patch every channel of it.
    const channels: ChannelSummary[] = [];
    for (const { id } of patch.channels) {
      const { channel } = await access.require(auth, id, 'channel.patch');
      channels.push(channel);
    }
    await patches.remove(patch.patchId);
    await plane.unpatch(String(patch.patchId));
    await record('channel_unpatch', auth.userId, channels);
    events.emit('patchesChanged', { channelIds: channels.map((channel) => channel.id) });
    return { success: true, ...said('channels_unpatched') };
  });

  route(GetPatches, async ({ auth }) => ({
    success: true,
    res: await patches.list(await access.channelsWhere(auth, 'channel.patch')),
  }));

  // A deleted channel leaves its patch; a patch of one channel joins nothing and goes too.
  const off = events.on('channelDeleted', () => {
    void (async () => {
      for (const patchId of await patches.shrunk()) {
        const patch = await patches.byId(patchId);
        await plane.unpatch(String(patchId));
        await patches.remove(patchId);
        events.emit('patchesChanged', { channelIds: patch?.channels.map((channel) => channel.id) ?? [] });
      }
    })().catch((error) => app.log.error({ err: error }, 'could not remove a patch left with one channel'));
  });
  app.addHook('onClose', async () => off());
}
