/** Presence and voice calls of spec section 7: connectAdminToChannel/ and updateUserMicState/. */
import { ConnectAdminToChannel, UpdateUserMicState } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { TokenOwner } from '../auth/sessions.ts';
import { forbidden, notFound } from '../http/errors.ts';
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
    if (!user) throw notFound('User');
    if (!(await access.mayRead({ userId, role: user.role }, channelId)))
      throw forbidden(
        auth.userId === userId ? 'You are not a member of this channel.' : 'This user is not a member of this channel.',
      );
    return user;
  }

  // Spec section 4: "when the socket id is known, the admin is connected to the channel". join_room already
  // writes presence; this call is kept for clients that report it over HTTP, and records no second join.
  route(ConnectAdminToChannel, async ({ body, auth }) => {
    const channel = await channels.byId(body.channelId);
    if (!channel) throw notFound('Channel');
    await requireUserInChannel(auth, body.userId, channel.id);
    const socket = await presence.socketRow(body.socketId);
    if (!socket) throw notFound('Socket (connect to the real-time server first)');
    if (socket.user_id !== body.userId) throw forbidden('This socket belongs to another user.');
    if (socket.channel_id !== channel.id) {
      await presence.setChannel(body.socketId, channel.id);
      realtime.publishStatus(body.userId, { alsoRooms: [channel.rtcSession] });
    }
    return { success: true, result: 'Connected to the channel.' };
  });

  route(UpdateUserMicState, async ({ body, auth }) => {
    const channel = await channels.byNameOrRoom(body.channelName);
    if (!channel) throw notFound('Channel');
    const user = await requireUserInChannel(auth, body.userId, channel.id);
    await realtime.changeMicState({
      userId: user.id,
      name: user.display_name,
      channel,
      socketId: (await presence.socketIn(user.id, channel.id)) ?? '',
      on: body.micState,
    });
    return { success: true, result: body.micState ? 'Microphone on.' : 'Microphone off.' };
  });
}
