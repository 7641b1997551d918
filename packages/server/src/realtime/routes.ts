/** Presence and voice calls of spec section 7: connectAdminToChannel/ and updateUserMicState/. */
import { ConnectAdminToChannel, UpdateUserMicState } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { TokenOwner } from '../auth/sessions.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { said } from '../http/messages.ts';
import { defineRoutes, requireSelfOrAdmin } from '../http/route.ts';
import type { Services } from '../services.ts';
import type { Realtime } from './server.ts';

export function realtimeRoutes(app: FastifyInstance, services: Services, realtime: Realtime): void {
  const { users, access, channels, presence } = services;
  const route = defineRoutes(app, services.sessions);

  /** The user acted for (itself, or anyone for an administrator) must be an administrator or a member. */
  async function requireUserInChannel(auth: TokenOwner, userId: number, channelId: number) {
    requireSelfOrAdmin(auth, userId);
    const user = await users.row(userId);
    if (!user) throw notFound('user_not_found');
    if (!(await access.mayRead({ userId, role: user.role }, channelId)))
      throw forbidden(auth.userId === userId ? 'not_channel_member' : 'user_not_channel_member');
    return user;
  }

  // Spec section 4: "when the socket id is known, the admin is connected to the channel". join_room already
  // writes presence; this call is kept for clients that report it over HTTP, and records no second join.
  route(ConnectAdminToChannel, async ({ body, auth }) => {
    const channel = await channels.byId(body.channelId);
    if (!channel) throw notFound('channel_not_found');
    await requireUserInChannel(auth, body.userId, channel.id);
    const socket = await presence.socketRow(body.socketId);
    if (!socket) throw notFound('socket_not_found');
    if (socket.user_id !== body.userId) throw forbidden('socket_of_other_user');
    if (socket.channel_id !== channel.id) {
      await presence.setChannel(body.socketId, channel.id);
      realtime.publishStatus(body.userId, { alsoRooms: [channel.rtcSession] });
    }
    return { success: true, ...said('connected_to_channel') };
  });

  route(UpdateUserMicState, async ({ body, auth }) => {
    const channel = await channels.byNameOrRoom(body.channelName);
    if (!channel) throw notFound('channel_not_found');
    const user = await requireUserInChannel(auth, body.userId, channel.id);
    await realtime.changeMicState({
      userId: user.id,
      name: user.display_name,
      channel,
      socketId: (await presence.socketIn(user.id, channel.id)) ?? '',
      on: body.micState,
    });
    return { success: true, ...said(body.micState ? 'microphone_on' : 'microphone_off') };
  });
}
