/** Channels and membership: the calls of spec section 7 that manage channels and who belongs to them. */
import {
  AddUserToChannel,
  CreateChannel,
  CreateMultipleChannels,
  DeleteChannel,
  DeleteUserFromChannel,
  GetAllChannels,
  GetChannelOverviews,
  GetChannelsToExport,
  GetMyChannels,
  GetUsersInChannel,
  type ImportReport,
  may,
  normalizeName,
  rtcSessionOf,
  SetChannelMemberRights,
  UpdateChannel,
  UpdateChannelUsers,
  UpdateUserChannels,
  type User,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { ActivityStore } from '../activities/store.ts';
import type { SessionStore } from '../auth/sessions.ts';
import { isUniqueViolation } from '../db/unique.ts';
import type { EventBus } from '../events.ts';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { sendList } from '../http/lists.ts';
import { said } from '../http/messages.ts';
import { defineRoutes } from '../http/route.ts';
import type { ListChangeLog } from '../lists/change-log.ts';
import { liveList } from '../lists/live-list.ts';
import type { PresenceStore } from '../presence/store.ts';
import { memberView } from '../users/member-view.ts';
import type { UserStore } from '../users/store.ts';
import type { ChannelAccess } from './access.ts';
import { channelsListSource } from './channels-list.ts';
import type { MembershipStore } from './membership.ts';
import type { ChannelStore, ChannelSummary } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface ChannelRoutesServices {
  access: ChannelAccess;
  activities: ActivityStore;
  /**
   * Area channels (issue 59, areas/follow.ts, which builds on channels/): a channel's zone changed, a member added
   * by hand. Its area is whatever areaOf answers, handed back as it came.
   */
  areaChannels: {
    areaOf(channelId: number): Promise<unknown>;
    zoneChanged(channelId: number, previous: unknown): Promise<void>;
    keepByHand(channelId: number, userIds: number[]): Promise<unknown>;
  };
  channels: ChannelStore;
  events: EventBus;
  /** The zone an area channel follows must be one (issue 59, geofences/store.ts). */
  geofences: { byId(id: number): Promise<unknown> };
  /** A deleted channel's uploaded files go (messages/files.ts). */
  files: { remove(name: string): Promise<void> };
  listChanges: ListChangeLog;
  memberships: MembershipStore;
  /** The names of a channel's uploaded files (messages/store.ts). */
  messages: { fileNamesOfChannel(channelId: number): Promise<string[]> };
  presence: PresenceStore;
  sessions: SessionStore;
  users: UserStore;
}

/** Spec section 8: the console shows this text when an update is refused. */
const NAME_MAX = 200;

export function channelRoutes(app: FastifyInstance, services: ChannelRoutesServices): void {
  const { channels, memberships, activities, events, users, access } = services;
  const route = defineRoutes(app, services.sessions);

  const memberIdsOf = async (channelId: number) => [...(await memberships.memberIds(channelId))];

  // The whole list, kept up to date channel by channel; ETag / 304, compressed when asked (http/lists.ts).
  const allChannels = liveList(services.listChanges, channelsListSource(channels));
  route(GetAllChannels, async ({ req, reply }) => sendList(req, reply, await allChannels.current()) as never);

  // Issue 18: the channels without their member lists, for the console's lists and pickers.
  route(GetChannelOverviews, async () => ({ success: true, res: await channels.overviews() }));

  route(GetChannelsToExport, async () => ({ success: true, res: await channels.exportRows() }));

  route(GetMyChannels, async ({ auth }) => {
    const talking = async (list: Awaited<ReturnType<typeof channels.ofUser>>) => {
      const now = await services.presence.talkingIn(list.map((channel) => channel.id));
      return list.map((channel) => ({ ...channel, talking: now.get(channel.id) ?? [] }));
    };
    const mine = await talking(await channels.ofUser(auth.userId));
    if (may(auth, null, 'users.manage')) return { success: true, res: mine };
    // A member sees its fellow members' names, not their logins (e-mail addresses).
    const named = mine.map((channel) => ({
      ...channel,
      users: channel.users.map((user) => (user.id === auth.userId ? user : { ...user, identifier: '' })),
    }));
    return { success: true, res: named };
  });

  route(GetUsersInChannel, async ({ body, auth }) => {
    const { standing } = await access.require(auth, body.channelId, 'channel.read');
    const [members, rights] = await Promise.all([
      users.inChannel(body.channelId),
      memberships.rightsOfChannel(body.channelId),
    ]);
    const withRights = (user: User) => ({ ...user, canTalk: rights.get(user.id)?.canTalk ?? true });
    if (may(auth, null, 'users.manage')) return { success: true, res: members.map(withRights) };
    // Spec section 6: positions are for users with map access (a dispatcher sees its channels' map).
    const me = await users.row(auth.userId);
    const seesMap = may({ role: auth.role, mapRight: me?.map_right === 1 }, standing, 'channel.map');
    return {
      success: true,
      res: members.map((u) => withRights(u.id === auth.userId ? u : memberView(u, body.channelId, seesMap))),
    };
  });

  route(SetChannelMemberRights, async ({ body }) => {
    const channel = await requireChannel(body.channelId);
    await requireUser(body.userId);
    if (!(await memberships.setCanTalk(channel.id, body.userId, body.canTalk)))
      throw notFound('user_not_channel_member');
    events.emit('membershipChanged', { userIds: [body.userId] });
    return { success: true, ...said('member_rights_updated') };
  });

  route(CreateChannel, async ({ body, auth }) => {
    const name = body.channelName;
    await requireZone(body.areaGeofenceId);
    if (await channels.conflicting(name)) throw conflict('channel_name_taken');
    let created: ChannelSummary;
    try {
      created = await channels.create(name);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('channel_name_taken');
      throw error;
    }
    if (body.floorControl === false) await channels.setFloorControl(created.id, false);
    if (body.voiceMode === 'mesh') await channels.setVoiceMode(created.id, 'mesh');
    if (body.recording === false) await channels.setRecording(created.id, false);
    if (body.floorQueue === false || body.preemption === 'queue')
      await channels.setFloorQueue(created.id, { floorQueue: body.floorQueue, preemption: body.preemption });
    if (body.videoAudience === 'channel') await channels.setVideoAudience(created.id, 'channel');
    if (body.areaGeofenceId) {
      await channels.setArea(created.id, body.areaGeofenceId);
      // Those already in the zone (their latest position) are in the channel from the start.
      await services.areaChannels.zoneChanged(created.id, undefined);
    }
    await activities.record('channel_creation', { userId: auth.userId, channelId: created.id, channelName: name });
    events.emit('channelChanged', { userIds: [] });
    const channel = await channels.one(created.id);
    if (!channel) throw notFound('channel_not_found');
    return { success: true, ...said('channel_created'), res: channel };
  });

  route(UpdateChannel, async ({ body, auth }) => {
    const current = await channels.listed(body.channelId);
    if (!current) throw notFound('channel_not_found');
    const name = body.channelName;
    if (await channels.conflicting(name, current.id)) throw conflict('channel_name_taken');
    await requireZone(body.areaGeofenceId);
    try {
      await channels.rename(current.id, name);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('channel_name_taken');
      throw error;
    }
    if (body.floorControl !== undefined && body.floorControl !== current.floorControl)
      await channels.setFloorControl(current.id, body.floorControl);
    if (body.voiceMode !== undefined && body.voiceMode !== current.voiceMode)
      await channels.setVoiceMode(current.id, body.voiceMode);
    if (body.recording !== undefined && body.recording !== current.recording)
      await channels.setRecording(current.id, body.recording);
    if (body.floorQueue !== undefined || body.preemption !== undefined)
      await channels.setFloorQueue(current.id, { floorQueue: body.floorQueue, preemption: body.preemption });
    if (body.videoAudience !== undefined && body.videoAudience !== current.videoAudience)
      await channels.setVideoAudience(current.id, body.videoAudience);
    if (body.areaGeofenceId !== undefined && body.areaGeofenceId !== current.areaGeofenceId) {
      const previous = await services.areaChannels.areaOf(current.id);
      await channels.setArea(current.id, body.areaGeofenceId);
      // Everyone in the old zone leaves it now; the next reports decide who is in the new one.
      await services.areaChannels.zoneChanged(current.id, previous);
    }
    await activities.record('channel_update', { userId: auth.userId, channelId: current.id, channelName: name });
    events.emit('channelChanged', { userIds: await memberIdsOf(current.id) });
    const channel = await channels.one(current.id);
    if (!channel) throw notFound('channel_not_found');
    return { success: true, ...said('channel_updated'), res: channel };
  });

  route(DeleteChannel, async ({ body, auth }) => {
    const channel = await channels.listed(body.channelId);
    if (!channel) throw notFound('channel_not_found');
    const members = await memberIdsOf(channel.id);
    const files = await services.messages.fileNamesOfChannel(channel.id);
    // Recorded first: the activity keeps the channel's name once the row is gone.
    await activities.record('channel_delete', {
      userId: auth.userId,
      channelId: channel.id,
      channelName: channel.name,
    });
    await channels.remove(channel.id);
    await Promise.all(files.map((name) => services.files.remove(name)));
    events.emit('channelDeleted', { channel, memberIds: members });
    return { success: true, ...said('channel_deleted') };
  });

  route(CreateMultipleChannels, async ({ body, auth }) => {
    const report: ImportReport<Record<string, unknown>> = { added: [], alreadyExisting: [], notAdded: [] };
    // Spec section 5: duplicate names are removed, a blank name is invalid, an existing name is reported.
    const seen = new Set<string>();
    const candidates: Array<{ row: Record<string, unknown>; name: string }> = [];
    for (const row of body.channelData) {
      const name = row.name === null || row.name === undefined ? '' : normalizeName(String(row.name));
      if (name === '' || name.length > NAME_MAX) {
        report.notAdded.push(row);
        continue;
      }
      if (seen.has(name)) continue;
      seen.add(name);
      candidates.push({ row, name });
    }
    const existing = await channels.existingNames(candidates.map((c) => c.name));
    const created: ChannelSummary[] = [];
    for (const { row, name } of candidates) {
      const key = rtcSessionOf(name);
      // A name that differs from another only by whitespace has the same room key: it already exists.
      if (existing.names.has(name) || existing.rtcSessions.has(key)) {
        report.alreadyExisting.push(row);
        continue;
      }
      try {
        const channel = await channels.create(name);
        created.push(channel);
        existing.rtcSessions.add(key);
        report.added.push({ ...row, name, id: channel.id });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        report.alreadyExisting.push(row);
      }
    }
    await activities.recordForChannels('channel_creation', auth.userId, created);
    if (created.length > 0) events.emit('channelChanged', { userIds: [] });
    return {
      success: true,
      ...said('channels_imported', {
        added: report.added.length,
        alreadyExisting: report.alreadyExisting.length,
        notAdded: report.notAdded.length,
      }),
      channelsCreated: report,
    };
  });

  /** An area channel's zone (issue 59): an existing geofence, or none. */
  const requireZone = async (geofenceId: number | null | undefined) => {
    if (geofenceId !== null && geofenceId !== undefined && !(await services.geofences.byId(geofenceId)))
      throw badRequest('area_geofence_unknown');
  };
  const requireUser = async (userId: number) => {
    if (!(await users.row(userId))) throw notFound('user_not_found');
  };
  // A private call's hidden channel is managed by its call, never by these calls: it does not exist for them.
  const requireChannel = async (channelId: number) => {
    const channel = await channels.listed(channelId);
    if (!channel) throw notFound('channel_not_found');
    return channel;
  };

  route(AddUserToChannel, async ({ body }) => {
    await requireChannel(body.channelId);
    await requireUser(body.userId);
    await memberships.add(body.channelId, [body.userId]);
    // Added by hand: an area channel never takes this member back (issue 59).
    await services.areaChannels.keepByHand(body.channelId, [body.userId]);
    events.emit('membershipChanged', { userIds: [body.userId] });
    return { success: true, ...said('user_added_to_channel') };
  });

  route(DeleteUserFromChannel, async ({ body }) => {
    await requireChannel(body.channelId);
    await requireUser(body.userId);
    await memberships.remove(body.channelId, body.userId);
    events.emit('membershipChanged', { userIds: [body.userId] });
    return { success: true, ...said('user_removed_from_channel') };
  });

  route(UpdateUserChannels, async ({ body }) => {
    await requireChannel(body.channelId);
    const unknown = await memberships.unknownUserIds(body.userList);
    if (unknown.length > 0) throw badRequest('unknown_users', { ids: unknown.slice(0, 20).join(', ') });
    const before = await memberIdsOf(body.channelId);
    await memberships.setUsersOfChannel(body.channelId, body.userList);
    events.emit('membershipChanged', { userIds: [...before, ...body.userList] });
    return { success: true, ...said('channel_members_updated') };
  });

  route(UpdateChannelUsers, async ({ body }) => {
    await requireUser(body.userId);
    const unknown = await memberships.unknownChannelIds(body.channelList);
    if (unknown.length > 0) throw badRequest('unknown_channels', { ids: unknown.slice(0, 20).join(', ') });
    await memberships.setChannelsOfUser(body.userId, body.channelList);
    events.emit('membershipChanged', { userIds: [body.userId] });
    return { success: true, ...said('user_channels_updated') };
  });
}
