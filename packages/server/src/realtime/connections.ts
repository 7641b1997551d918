/**
 * A socket's life on this instance, once its handshake passed (handshake.ts, connection-gate.ts): its rooms
 * (its user's, its client kind's, the administrators'), its scope and the concerns that handle its events, the
 * presence written behind its queue, and at the end what it leaves. A transport that died without a goodbye is
 * recorded as a lost connection only if its user is not back within the grace period.
 */
import { may } from '@talkgroup/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import { ADMINS_ROOM, channelRoom, userRoom } from '../sockets/room-names.ts';
import { afterPresence, leaveAll, ownerOf, presenceSettled } from './concerns/rooms.ts';
import type { Concern, LocalSocket, RealtimeContext, SocketScope } from './context.ts';
import { tokenOf } from './handshake.ts';
import type { TalkSocket } from './io.ts';
import { clientKindRoom } from './legacy/client-kinds.ts';
import { resolveParticipation } from './participations.ts';
import { socketTasks } from './socket-tasks.ts';

/** Disconnections the client or the server asked for; any other reason is a lost connection. */
const EXPECTED_DISCONNECTS = new Set(['client namespace disconnect', 'server namespace disconnect']);

export interface ConnectionDeps {
  ctx: RealtimeContext;
  /** This instance's sockets, by id: a socket is in it from its connection until its last task after it left. */
  local: Map<string, LocalSocket>;
  /** Every socket's events, by subject. */
  concerns: Concern[];
  sessions: SessionStore;
  /** Its arrival is pushed with its first join (status.ts). */
  status: { joinAsked(userId: number): void };
  /** Its supervisor rooms, from its user's memberships (supervision.ts). */
  supervisors: { place(socket: TalkSocket): Promise<void> };
  /** A party of an answered private call gone without a goodbye (private-call-rooms.ts). */
  callRooms: { left(userId: number, channelId: number): void };
  connectionLostGraceMs: number;
  log: FastifyBaseLogger;
}

export class Connections {
  readonly #deps: ConnectionDeps;
  /** Shutting down: a disconnect only tells the peers elsewhere (the rows go in one statement). */
  #closing = false;
  readonly #graceTimers = new Set<NodeJS.Timeout>();

  constructor(deps: ConnectionDeps) {
    this.#deps = deps;
  }

  /** A socket that passed the handshake: its rooms, its scope, its concerns, and its presence once checked. */
  accept(socket: TalkSocket): void {
    const { ctx, local, log, concerns, status } = this.#deps;
    const { userId } = socket.data;
    socket.join([userRoom(userId), clientKindRoom(socket)]);
    // Whoever takes every channel's alerts hears the whole console's pushes (administrators).
    if (may(socket.data, null, 'channel.alerts')) socket.join(ADMINS_ROOM);
    ctx.arrivals.connected(socket.id);

    const tasks = socketTasks(socket, log, () => local.delete(socket.id), ctx.services.faults);
    const scope: SocketScope = {
      ...ctx,
      on: tasks.on,
      answer: tasks.answer,
      answerNow: tasks.answerNow,
      run: tasks.run,
      requireRoom: (event, claimed) => resolveParticipation(socket.data, event, claimed),
    };
    local.set(socket.id, { socket, scope });
    // Its arrival is pushed with its first join (status.ts), however long the server takes to answer it.
    socket.once('join_room', () => status.joinAsked(userId));
    void tasks.run('connect', () => this.#connected(socket));
    for (const concern of concerns) concern(socket, scope);
    socket.on('disconnect', (reason) => {
      void tasks.run('disconnect', () => this.#disconnected(socket, scope, reason));
    });
  }

  /** Shutting down: disconnects no longer count as lost, and no lost connection is recorded any more. */
  close(): void {
    this.#closing = true;
    for (const timer of this.#graceTimers) clearTimeout(timer);
  }

  async #connected(socket: TalkSocket): Promise<void> {
    const { ctx, sessions, supervisors } = this.#deps;
    const { presence } = ctx.services;
    const { userId } = socket.data;
    // The token may have been revoked between the handshake and now: its owner must not stay connected.
    if (!(await sessions.resolve(tokenOf(socket.handshake)))) {
      socket.emit('session_ended', { reason: 'revoked', message: 'Your session has ended: sign in again.' });
      socket.disconnect(true);
      return;
    }
    // Written behind the socket's queue: its join_room does not wait for the disk (concerns/rooms.ts).
    void afterPresence(socket, ctx, async (trx) => {
      await presence.add(ownerOf(socket, ctx), trx);
      const count = await presence.socketCount(userId, trx);
      return () => {
        ctx.publishStatus(userId, { cameOnline: count === 1, arriving: true });
        // The people connected at once may have grown (presence/samples.ts counts it now).
        if (count === 1) ctx.services.events.emit('userCameOnline', { userId });
      };
    });
    await supervisors.place(socket);
  }

  async #disconnected(socket: TalkSocket, scope: SocketScope, reason: string): Promise<void> {
    const { ctx, callRooms } = this.#deps;
    const { userId } = socket.data;
    if (this.#closing) {
      // Shutting down: peers elsewhere learn it now; the rows go in one statement (server.ts, closeRealtime).
      for (const { room } of socket.data.participations)
        socket.to(channelRoom(room)).emit('user_exit', { id: socket.id, room });
      return;
    }
    const channelId = socket.data.participations.find((at) => !at.hidden)?.channelId;
    const inCalls = socket.data.participations.filter((at) => at.hidden).map((at) => at.channelId);
    const left = await leaveAll(socket, scope, 'disconnect');
    // After the socket's own presence writes (group commit): a row written after its removal stayed for good.
    await presenceSettled(socket);
    await ctx.services.presence.remove(socket.id);
    if (!EXPECTED_DISCONNECTS.has(reason)) this.#connectionLost(userId, channelId);
    for (const callChannel of inCalls) callRooms.left(userId, callChannel);
    ctx.publishStatus(userId, { alsoRooms: left });
  }

  /**
   * A transport that died without a goodbye is a lost connection only if its user is not back within the
   * grace period (on any instance: presence is in the database). Pages say goodbye when they unload.
   */
  #connectionLost(userId: number, channelId: number | undefined): void {
    const { ctx, log, connectionLostGraceMs } = this.#deps;
    const at = new Date();
    const timer = setTimeout(() => {
      this.#graceTimers.delete(timer);
      void (async () => {
        if ((await ctx.services.presence.socketCount(userId)) > 0) return;
        await ctx.services.activities.record('connexion_lost', { userId, channelId: channelId ?? null, at });
      })().catch((error) => log.error({ err: error, userId }, 'could not record a lost connection'));
    }, connectionLostGraceMs);
    timer.unref();
    this.#graceTimers.add(timer);
  }
}
