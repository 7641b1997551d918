/**
 * The spec's presence and voice calls (section 7), translated into the core's: `connectAdminToChannel/`
 * places a socket in a channel (join_room already does; kept for clients that report it over HTTP), and
 * `updateUserMicState/` is a press or a release that goes through the floor like a socket's: refused while
 * another holds it, or to a listener.
 */
import { ConnectAdminToChannel, may, talkPriorityOf, UpdateUserMicState } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../../auth/sessions.ts';
import type { ChannelAccess } from '../../channels/access.ts';
import type { ChannelStore } from '../../channels/store.ts';
import type { Talker, TalkPlace } from '../../floor/push-to-talk.ts';
import { conflict, forbidden, HttpError, notFound } from '../../http/errors.ts';
import { said } from '../../http/messages.ts';
import { defineRoutes, requireSelfOr, type TokenOwner } from '../../http/route.ts';
import type { PresenceStore } from '../../presence/store.ts';
import type { UserStore } from '../../users/store.ts';
import type { RealtimeContext } from '../context.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface SpecHttpCallServices {
  access: ChannelAccess;
  channels: ChannelStore;
  presence: PresenceStore;
  sessions: SessionStore;
  users: UserStore;
}

export function specHttpCalls(
  app: FastifyInstance,
  services: SpecHttpCallServices,
  realtime: Pick<RealtimeContext, 'publishStatus' | 'talk' | 'floor'>,
): void {
  const { users, access, channels, presence } = services;
  const route = defineRoutes(app, services.sessions);

  /** The user acted for (itself, or anyone for one who manages users) must be one who may be in the channel. */
  async function requireUserInChannel(auth: TokenOwner, userId: number, channelId: number) {
    requireSelfOr(auth, userId, 'users.manage');
    const user = await users.row(userId);
    if (!user) throw notFound('user_not_found');
    const actor = { userId, role: user.role, mapRight: user.map_right === 1 };
    const standing = await access.standing(actor, channelId);
    if (!may(actor, standing, 'channel.listen'))
      throw forbidden(auth.userId === userId ? 'not_channel_member' : 'user_not_channel_member');
    return { user, mayTalk: may(actor, standing, 'channel.talk') };
  }

  // Spec section 4: "when the socket id is known, the admin is connected to the channel". join_room already
  // writes presence; this call is kept for clients that report it over HTTP, and records no second join.
  route(ConnectAdminToChannel, async ({ body, auth }) => {
    // A private call's hidden channel is none (issue 35).
    const channel = await channels.listed(body.channelId);
    if (!channel) throw notFound('channel_not_found');
    await requireUserInChannel(auth, body.userId, channel.id);
    const rows = await presence.socketRows(body.socketId);
    if (rows.length === 0) throw notFound('socket_not_found');
    if (rows[0].user_id !== body.userId) throw forbidden('socket_of_other_user');
    if (!rows.some((row) => row.channel_id === channel.id)) {
      // The spec's clients are in one channel at a time: the socket is now in this one.
      const owner = { socketId: body.socketId, userId: body.userId, instanceId: rows[0].instance_id };
      await presence.restore(owner, [{ channelId: channel.id, mode: 'talk' }]);
      realtime.publishStatus(body.userId, { alsoRooms: [channel.rtcSession] });
    }
    return { success: true, ...said('connected_to_channel') };
  });

  route(UpdateUserMicState, async ({ body, auth }) => {
    const channel = await channels.byNameOrRoom(body.channelName);
    if (!channel || channel.hidden) throw notFound('channel_not_found');
    const { user, mayTalk } = await requireUserInChannel(auth, body.userId, channel.id);
    const socket = await presence.socketIn(user.id, channel.id);
    // A user without a socket there (a client that only reports over HTTP) holds the floor under a name of its own.
    const talker: Talker = {
      userId: user.id,
      name: user.display_name,
      role: user.role,
      socketId: socket?.socketId ?? `http:${user.id}`,
      talkPriority: talkPriorityOf({ role: user.role, talkPriority: user.talk_priority }),
    };
    const at: TalkPlace = { channelId: channel.id, room: channel.rtcSession, mode: socket?.mode ?? 'talk', mayTalk };
    const holder = await realtime.floor.holder(channel.id);
    if (!body.micState) {
      const holding = holder?.userId === user.id ? holder.socketId : talker.socketId;
      await realtime.talk.record([await realtime.talk.release({ ...talker, socketId: holding }, at)]);
      return { success: true, ...said('microphone_off') };
    }
    // The user's own socket took the floor already (its press; this report follows it).
    if (holder?.userId === user.id) return { success: true, ...said('microphone_on') };
    const { answer, changes } = await realtime.talk.press(talker, at);
    if ('holder' in answer) throw conflict('floor_busy', { name: answer.holder.name });
    if (!answer.granted) throw new HttpError(403, 'listen_only');
    await realtime.talk.record(changes);
    return { success: true, ...said('microphone_on') };
  });
}
