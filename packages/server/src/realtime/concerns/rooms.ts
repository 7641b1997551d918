/**
 * Channel rooms: `join_room` adds a channel to the socket's participations (talk or listen; at most
 * MAX_PARTICIPATIONS), `leave_room` leaves one or all of them, and what leaving or following a renamed channel
 * means. The spec's clients join without a mode: they are in one room at a time, so a join leaves the others.
 */
import {
  type Actor,
  gatewayPeerId,
  type JoinAnswer,
  JoinRoom,
  LeaveRoom,
  MAX_PARTICIPATIONS,
  may,
  type RoomPeer,
} from '@talkgroup/protocol';
import type { ChannelSummary } from '../../channels/store.ts';
import type { PresenceWrite } from '../../presence/group-commit.ts';
import type { SocketOwner } from '../../presence/store.ts';
import { channelRoom, mapRoom } from '../../sockets/room-names.ts';
import type { Concern, RealtimeContext } from '../context.ts';
import type { Participation, SocketData, TalkSocket } from '../io.ts';
import { SPEC_PEER_ID } from '../media/plane.ts';
import { participationByRoom, participationIn, roomsOf } from '../participations.ts';
import { parse, SocketInputError } from '../socket-tasks.ts';
import { talkerOf } from './floor.ts';

export type LeaveReason = 'leave' | 'disconnect' | 'evicted';

/**
 * Presence writes of each socket, in order, committed with the other writes of the moment (group-commit.ts):
 * a crowd's joins share their commits, and no socket's signalling waits behind another's writes. Whatever
 * reads or removes the socket's rows waits for them first (`presenceSettled`).
 */
const presenceWrites = new WeakMap<TalkSocket, Promise<void>>();

export function afterPresence(socket: TalkSocket, ctx: RealtimeContext, write: PresenceWrite): Promise<void> {
  const previous = presenceWrites.get(socket) ?? Promise.resolve();
  const next = previous
    .then(() => ctx.presenceWrites.write(write))
    .catch((error) => ctx.log.error({ err: error }, 'could not write a presence change'));
  presenceWrites.set(socket, next);
  return next;
}

/** Resolves once the socket's presence writes so far are done. */
export function presenceSettled(socket: TalkSocket): Promise<void> {
  return presenceWrites.get(socket) ?? Promise.resolve();
}

export function ownerOf(socket: TalkSocket, ctx: Pick<RealtimeContext, 'instanceId'>): SocketOwner {
  return { socketId: socket.id, userId: socket.data.userId, instanceId: ctx.instanceId };
}

const actorOf = (socket: TalkSocket): Actor => ({ role: socket.data.role, mapRight: socket.data.mapRight });

/** Out of one channel: the others there see it go, its floor and talk burst end, the log says it left. */
export async function leaveChannel(
  socket: TalkSocket,
  ctx: RealtimeContext,
  at: Participation,
  reason: LeaveReason,
): Promise<void> {
  await presenceSettled(socket);
  const { userId } = socket.data;
  if (!participationIn(socket.data, at.channelId)) return;
  socket.data.participations = socket.data.participations.filter((p) => p.channelId !== at.channelId);
  socket.to(channelRoom(at.room)).emit('user_exit', { id: socket.id, room: at.room });
  if (reason !== 'disconnect') {
    await Promise.all(roomsOf(socket.id, at).map((name) => socket.leave(name)));
    await ctx.services.presence.leave(ownerOf(socket, ctx), at.channelId);
  }
  await ctx.media.opened(at.channelId)?.remove(socket.id);
  await ctx.floor.free(
    socket.id,
    at.room,
    at.channelId,
    reason === 'disconnect' ? undefined : reason === 'evicted' ? 'revoked' : 'left',
  );
  // Issue 59: leaving the channel leaves its floor queue (and declines an offer).
  await ctx.floor.queue.cancel(socket.id, at.room, at.channelId);
  // Issue 61: its live video there ends (a page gone ends its streams on its own: video.ts).
  if (reason !== 'disconnect') await ctx.videos.leftChannel(socket.id, at.channelId, reason === 'evicted');
  await ctx.talk.endTalkOnLeave(talkerOf(socket), at);
  if (!at.hidden) await ctx.services.activities.record('channel_leave', { userId, channelId: at.channelId });
  if (reason === 'evicted') ctx.publishStatus(userId, { alsoRooms: [at.room] });
}

/** Out of every channel of the socket. */
export async function leaveAll(socket: TalkSocket, ctx: RealtimeContext, reason: LeaveReason): Promise<string[]> {
  const left = [...socket.data.participations];
  for (const at of left) await leaveChannel(socket, ctx, at, reason);
  return left.map((at) => at.room);
}

/** How many of a channel's former room keys a participation remembers (a client that missed renames). */
const FORMER_ROOMS_KEPT = 4;

/**
 * The participation a `leave_room` names: the one in that room or, for a socket in one channel, the one whose
 * channel had that room key before a rename (a spec client that missed it). Any other room (a private call's
 * that is over, so the socket already left it) names nothing: before issue 58 a socket in one channel left it
 * whatever the room named, and a member went deaf to his channel when his page said goodbye to a call.
 */
export function participationLeaving(data: SocketData, room: string): Participation | undefined {
  const named = participationByRoom(data, room);
  if (named) return named;
  const [only, ...others] = data.participations;
  return only && others.length === 0 && only.formerRooms?.includes(room) ? only : undefined;
}

/** The channel was renamed: same channel, new room key. Peers stay connected; pushes follow. */
export async function followRename(socket: TalkSocket, channel: ChannelSummary): Promise<void> {
  const at = participationIn(socket.data, channel.id);
  if (!at || at.room === channel.rtcSession) return;
  await Promise.all([socket.leave(channelRoom(at.room)), socket.leave(mapRoom(at.room))]);
  at.formerRooms = [...(at.formerRooms ?? []), at.room].slice(-FORMER_ROOMS_KEPT);
  at.room = channel.rtcSession;
  await socket.join(roomsOf(socket.id, at));
}

export const rooms: Concern = (socket, scope) => {
  const { services, io } = scope;
  const { userId } = socket.data;
  /** A peer's functional aliases (issue 59), as a field to spread, when it holds any. */
  const aliasOf = (peerId: number): { alias?: string } => {
    const alias = services.aliasLabels?.of(peerId);
    return alias ? { alias } : {};
  };

  /**
   * A page that joins learns the floor as it stands, as the room's pages learnt it when it changed: who else
   * talks (onMicStateChanged, its mic on) and who waits in the queue (floor_queue, issue 59). Without it, a page opened
   * while someone talked read "nobody talks", and the queue showed empty until its next change.
   */
  async function tellFloor(channelId: number, room: string): Promise<void> {
    const [holder, waiting] = await Promise.all([
      scope.floor.holder(channelId).catch(() => undefined),
      scope.floor.queue.waiting(channelId).catch(() => []),
    ]);
    if (holder && !holder.offer && holder.socketId !== socket.id)
      socket.emit('onMicStateChanged', {
        id: holder.socketId,
        userId: holder.userId,
        name: holder.name,
        micState: true,
        room,
      });
    if (waiting.length > 0)
      socket.emit('floor_queue', {
        room,
        queue: waiting.map(({ userId, name, priority, since }) => ({ userId, name, priority, since })),
      });
  }

  async function join(payload: unknown): Promise<JoinAnswer> {
    const { room, mode: asked } = parse(JoinRoom, payload, 'join_room');
    const found = await services.channels.byRtcSession(room);
    const missing = `join_room: there is no channel with the room "${room}".`;
    if (!found) throw new SocketInputError(missing);
    // A private call's room: only its two parties, only while the call is answered; no role's right opens it
    // (issue 35), and to anyone else (an administrator too) it is a room that does not exist.
    if (found.hidden && !(await services.privateCalls.mayEnter(userId, found.id))) {
      if (await services.privateCalls.isParty(userId, found.id))
        throw new SocketInputError('join_room: this private call is not going on.');
      throw new SocketInputError(missing);
    }
    const { channel, standing } = found.hidden
      ? { channel: found, standing: { member: true, canTalk: true } }
      : await services.access.require(socket.data, found.id, 'channel.listen');
    const mode = asked ?? 'talk';
    if (asked === undefined) {
      // The spec's clients are in one room at a time.
      for (const other of [...socket.data.participations])
        if (other.channelId !== channel.id) await leaveChannel(socket, scope, other, 'leave');
    }
    const current = participationIn(socket.data, channel.id);
    if (!current && socket.data.participations.length >= MAX_PARTICIPATIONS)
      throw new SocketInputError(
        `join_room: a socket may be in at most ${MAX_PARTICIPATIONS} channels at once: leave one first (leave_room).`,
      );
    const at: Participation = {
      channelId: channel.id,
      room,
      mode,
      mayTalk: may(actorOf(socket), standing, 'channel.talk'),
      ...(standing.memberRightsOnly ? { memberRightsOnly: true } : {}),
      // Nobody's position is shown in a private call (no map right comes from it).
      seesMap: !channel.hidden && may(actorOf(socket), standing, 'channel.map'),
      ...(channel.hidden ? { hidden: true } : {}),
    };
    if (current) {
      // Listening now: a floor it held goes back.
      if (
        current.mode === 'talk' &&
        mode === 'listen' &&
        (await scope.floor.free(socket.id, room, channel.id, 'revoked'))
      )
        await scope.talk.endTalkOnLeave(talkerOf(socket), current);
      // ...and it leaves the floor queue (issue 59).
      if (current.mode === 'talk' && mode === 'listen') await scope.floor.queue.cancel(socket.id, room, channel.id);
      Object.assign(current, at);
    } else socket.data.participations.push(at);

    if (!current || current.mode !== mode) {
      // The presence row is written before the join is answered (a client may then ask HTTP calls about its
      // socket), committed with the other joins of the moment; the log entry and the status push follow it.
      const owner = ownerOf(socket, scope);
      await afterPresence(socket, scope, async (trx) => {
        if (!participationIn(socket.data, channel.id)) return undefined;
        await services.presence.join(owner, channel.id, mode, trx);
        if (current) return undefined;
        if (channel.hidden) return () => scope.publishStatus(userId, { alsoRooms: [room] });
        const joined = { userId, channelId: channel.id, channelName: channel.name };
        const activity = await services.activities.recordWith(trx, 'channel_join', joined);
        return () => {
          services.activities.announce(activity);
          scope.publishStatus(userId, { alsoRooms: [room] });
        };
      });
    }
    await socket.join(roomsOf(socket.id, at));
    if (!current) scope.arrivals.joined(socket.id, channelRoom(room));
    const spec = asked === undefined;
    await scope.media
      .channel(channel)
      .admit({ socketId: socket.id, userId, name: socket.data.name, mode, ...(spec ? { spec } : {}) });
    // How this channel's voice travels, before its peers: the client picks its transport first.
    const kind = scope.media.kindOf(channel);
    socket.emit('media_plane', scope.media.fallback(channel) ? { room, kind, fallback: true } : { room, kind });
    // Joined first, listed second: of two sockets joining at once, at least one sees the other. A spec client
    // in a channel through the media server sees one peer, the media server, named as the channel (issue 37):
    // it offers to it as to any peer, and hears every talker through it.
    const peers: RoomPeer[] =
      spec && kind === 'server'
        ? [{ id: SPEC_PEER_ID, name: channel.name, userId: 0, room, mode: 'talk' }]
        : (await io.in(channelRoom(room)).fetchSockets())
            .filter((other) => other.id !== socket.id)
            .map((other) => ({
              id: other.id,
              name: other.data.name,
              userId: other.data.userId,
              room,
              mode: participationIn(other.data, channel.id)?.mode ?? 'talk',
              ...aliasOf(other.data.userId),
            }));
    // The gateways' calls in the channel (issue 51), on any instance: peers without a socket, heard through the
    // media server (a page never connects to one).
    if (!spec && kind === 'server')
      for (const call of await services.gateways.calls(channel.id).catch(() => []))
        peers.push({
          id: gatewayPeerId(call.callId),
          name: call.gatewayName,
          userId: call.userId,
          room,
          mode: 'talk',
          gateway: { gatewayId: call.gatewayId, callId: call.callId },
        });
    scope.emitToSocket(socket, 'all_users', peers);
    // After the join's answer, never before it: a page that presses as soon as it may would otherwise get its
    // grant before its join is answered (and give the floor back, talkControl.ts).
    setImmediate(() => void tellFloor(channel.id, room).catch(() => undefined));
    if (!current)
      socket
        .to(channelRoom(room))
        .emit('user joined', { id: socket.id, name: socket.data.name, userId, room, mode, ...aliasOf(userId) });
    // The spec's clients got `{ success }`; a client that names a mode learns where it is.
    return asked === undefined ? { success: true } : { success: true, room, mode };
  }
  // Once the first join is answered (or refused), the socket's arrival no longer waits for it (status.ts).
  scope.answer('join_room', (payload) => join(payload).finally(() => scope.arrivalSettled(userId)));

  scope.on('leave_room', async (payload) => {
    const { room } = parse(LeaveRoom, payload ?? {}, 'leave_room');
    const { participations } = socket.data;
    if (participations.length === 0) throw new SocketInputError('leave_room: join a room first (join_room).');
    const named = room ? participationLeaving(socket.data, room) : undefined;
    if (room && !named) {
      // A private call's room the socket was put out of when the call ended: its goodbye comes after; nothing to do.
      if ((await services.channels.byRtcSession(room))?.hidden) return;
      throw new SocketInputError(`leave_room: this socket is not in the room "${room}".`);
    }
    const left = named ? [named] : [...participations];
    for (const at of left) await leaveChannel(socket, scope, at, 'leave');
    scope.publishStatus(userId, { alsoRooms: left.map((at) => at.room) });
  });
};
