/**
 * Geofences (issue 28): administrators draw fences for everyone or for a channel, dispatchers for their
 * channels (channel.geofences). Every change is pushed (`geofencesChanged`) and drops the crossing check's
 * cache on every instance. A fence that an area channel follows decides who joins that channel (issue 59): only
 * an administrator (who gives a channel its zone: channels.manage) may change or delete it (issue 69), so that a
 * dispatcher cannot widen it over another team's site; a refusal is audited (audit/auditing.ts).
 */
import { CreateGeofence, DeleteGeofence, type Geofence, GetGeofences, may, UpdateGeofence } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import type { ChannelAccess, Reader } from '../channels/access.ts';
import type { EventBus } from '../events.ts';
import { forbidden, HttpError, notFound } from '../http/errors.ts';
import { said } from '../http/messages.ts';
import { defineRoutes } from '../http/route.ts';
import type { UserStore } from '../users/store.ts';
import type { GeofenceStore } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface GeofenceRoutesServices {
  access: ChannelAccess;
  events: EventBus;
  geofences: GeofenceStore;
  sessions: SessionStore;
  users: UserStore;
  /** The area channels that follow a zone now (areas/follow.ts). */
  areaChannels: { followingZone(geofenceId: number): Promise<Array<{ channelName: string }>> };
}

export function geofenceRoutes(app: FastifyInstance, services: GeofenceRoutesServices): void {
  const { geofences, access, events, users } = services;
  const route = defineRoutes(app, services.sessions);

  /** May `reader` draw in this channel (null: a fence that watches everyone, administrators only)? */
  async function requireDrawer(reader: Reader, channelId: number | null): Promise<void> {
    if (channelId === null) {
      if (!may(reader, null, 'channel.geofences')) throw forbidden('admin_only');
      return;
    }
    await access.require(reader, channelId, 'channel.geofences');
  }

  /** The fence, if `reader` may change or delete it: a drawer of its channel, and an administrator for an area's. */
  async function requireFence(reader: Reader, id: number): Promise<Geofence> {
    const fence = await geofences.byId(id);
    if (!fence) throw notFound('geofence_not_found');
    await requireDrawer(reader, fence.channelId);
    if (!may(reader, null, 'channels.manage')) {
      const [area] = await services.areaChannels.followingZone(fence.id);
      if (area) throw new HttpError(403, 'geofence_area_admin_only', { channel: area.channelName });
    }
    return fence;
  }

  const saved = async (id: number): Promise<Geofence> => {
    const fence = await geofences.byId(id);
    if (!fence) throw notFound('geofence_not_found');
    return fence;
  };

  route(GetGeofences, async ({ body, auth }) => {
    if (body.channelId !== undefined) {
      await access.require(auth, body.channelId, 'channel.geofences');
      return { success: true, res: await geofences.list([body.channelId], may(auth, null, 'channel.geofences')) };
    }
    const channels = await access.channelsWhere(auth, 'channel.geofences');
    return { success: true, res: await geofences.list(channels, false) };
  });

  route(CreateGeofence, async ({ body, auth }) => {
    const channelId = body.channelId ?? null;
    await requireDrawer(auth, channelId);
    const author = await users.row(auth.userId);
    if (!author) throw notFound('user_not_found');
    const id = await geofences.create(
      { name: body.name, channelId, shape: body.shape, alertOn: body.alertOn, activeUntil: body.activeUntil ?? null },
      { id: auth.userId, name: author.display_name },
    );
    events.emit('geofencesChanged', { channelId });
    return { success: true, ...said('geofence_created'), res: await saved(id) };
  });

  route(UpdateGeofence, async ({ body, auth }) => {
    const fence = await requireFence(auth, body.id);
    if (body.channelId !== undefined && body.channelId !== fence.channelId) await requireDrawer(auth, body.channelId);
    await geofences.update(fence.id, {
      name: body.name,
      channelId: body.channelId,
      shape: body.shape,
      alertOn: body.alertOn,
      activeUntil: body.activeUntil,
    });
    events.emit('geofencesChanged', { channelId: fence.channelId });
    if (body.channelId !== undefined && body.channelId !== fence.channelId)
      events.emit('geofencesChanged', { channelId: body.channelId });
    return { success: true, ...said('geofence_updated'), res: await saved(fence.id) };
  });

  route(DeleteGeofence, async ({ body, auth }) => {
    const fence = await requireFence(auth, body.id);
    await geofences.remove(fence.id);
    events.emit('geofencesChanged', { channelId: fence.channelId });
    return { success: true, ...said('geofence_deleted') };
  });
}
