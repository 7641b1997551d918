/** Push-to-talk: the mic state pushed to the room first, then kept as talk bursts and channel_talk entries. */
import { FloorRequest, MicStateChange } from '@talkgroup/protocol';
import type { ChannelSummary } from '../../channels/store.ts';
import type { Concern, MicChange, RealtimeContext, SocketScope, TalkSocket } from '../context.ts';
import type { FloorOutcome, TakeOptions } from '../floor.ts';
import { channelRoom, lobbyRoom } from '../room-names.ts';
import { parse, SocketInputError } from '../socket-tasks.ts';

type TalkDeps = Pick<RealtimeContext, 'services' | 'emitTo'>;

/** Ends the user's transmission in the channel: one channel_talk entry with its duration. */
async function endBurst({ services }: TalkDeps, userId: number, channelId: number): Promise<boolean> {
  const ended = await services.talkBursts.end(userId, channelId);
  if (!ended) return false;
  await services.activities.record('channel_talk', { userId, channelId, durationMs: ended.durationMs });
  return true;
}

/** Tells the room (and the channel lists) that a mic went on or off: the others' talking indicators. */
function announceMicState({ emitTo }: TalkDeps, change: MicChange): void {
  const { channel } = change;
  emitTo([channelRoom(channel.rtcSession), lobbyRoom(channel.id)], 'onMicStateChanged', {
    id: change.socketId,
    userId: change.userId,
    name: change.name,
    micState: change.on,
    room: channel.rtcSession,
  });
}

/** Keeps a mic change: the talk burst (and its channel_talk entry) and the presence row. */
async function recordMicState(deps: TalkDeps, change: MicChange): Promise<void> {
  const { channel, on } = change;
  if (on) await deps.services.talkBursts.start(change.userId, channel);
  else await endBurst(deps, change.userId, channel.id);
  await deps.services.presence.setMicState(change.userId, channel.id, on);
}

export function talkActions(deps: TalkDeps): Pick<RealtimeContext, 'changeMicState' | 'endTalkOnLeave'> {
  const { services, emitTo } = deps;
  return {
    async changeMicState(change: MicChange) {
      // Pushed first: the others' speaker icons must follow the button, the bookkeeping can come after.
      announceMicState(deps, change);
      await recordMicState(deps, change);
    },

    // Leaving while talking ends the burst; the others see the mic go off.
    async endTalkOnLeave(socket: TalkSocket, room: string, channelId: number) {
      const { userId, name } = socket.data;
      const ended = await services.talkBursts.end(userId, channelId);
      if (!ended) return;
      emitTo([channelRoom(room), lobbyRoom(channelId)], 'onMicStateChanged', {
        id: socket.id,
        userId,
        name,
        micState: false,
        room,
      });
      await services.activities.record('channel_talk', { userId, channelId, durationMs: ended.durationMs });
    },
  };
}

/**
 * Asks for the floor of the socket's channel. With floor control off (an open conference) everyone may talk:
 * granted without asking the floor store. The channel comes from memory (channel-cache.ts).
 */
export async function requestFloor(
  socket: TalkSocket,
  scope: SocketScope,
  at: { room: string; channelId: number },
  options?: TakeOptions,
): Promise<{ outcome: FloorOutcome; channel: ChannelSummary }> {
  const channel = await scope.channelCache.get(at.channelId);
  if (!channel) throw new SocketInputError('This channel no longer exists.');
  if (!channel.floorControl) return { outcome: { answer: { granted: true } }, channel };
  const outcome = await scope.floor.take({ ...socket.data, socketId: socket.id }, at.room, at.channelId, options);
  return { outcome, channel };
}

/** This socket's own mic going on or off in a channel. */
function ownChange(socket: TalkSocket, channel: ChannelSummary, on: boolean): MicChange {
  return { userId: socket.data.userId, name: socket.data.name, channel, socketId: socket.id, on };
}

/** The mic changes a grant means: the preempted member stops, the new holder talks. */
function grantChanges(socket: TalkSocket, outcome: FloorOutcome, channel: ChannelSummary): MicChange[] {
  const { preempted } = outcome;
  const holder = ownChange(socket, channel, true);
  return preempted ? [{ ...preempted, channel, on: false }, holder] : [holder];
}

/** A grant's mic changes, shown and kept. */
export async function afterGrant(
  socket: TalkSocket,
  scope: SocketScope,
  outcome: FloorOutcome,
  channel: ChannelSummary,
): Promise<void> {
  for (const change of grantChanges(socket, outcome, channel)) await scope.changeMicState(change);
}

/**
 * Shows mic changes to the room now, and keeps them in the socket's queue (in the order the events came,
 * before a later leave or disconnect) once the answer is on its way: node:sqlite writes on this thread, and
 * a talk burst's commit must delay neither the grant nor the others' indicators (bench/ptt-latency,
 * bench/floor-grant).
 */
function announceThenRecord(scope: SocketScope, event: string, changes: MicChange[]): void {
  for (const change of changes) announceMicState(scope, change);
  void scope.run(event, async () => {
    // The answer is sent in this turn's microtasks; the writes start in the next turn.
    await new Promise((resolve) => setImmediate(resolve));
    for (const change of changes) await recordMicState(scope, change);
  });
}

/**
 * Push-to-talk over the floor: `floor_request` / `floor_release`, and old clients' `micStateChange` (true
 * asks for the floor, false gives it back). A grant is answered and pushed before anything is written;
 * the talk bursts follow in the socket's queue.
 */
export const talk: Concern = (socket, scope) => {
  /** This socket's mic going off in a channel. */
  const micOff = async (event: string, channelId: number): Promise<MicChange> => {
    const channel = await scope.channelCache.get(channelId);
    if (!channel) throw new SocketInputError(`${event}: this channel no longer exists.`);
    return ownChange(socket, channel, false);
  };

  // A press and a release are decided and shown at once, beside the socket's queue: a grant must never wait
  // behind the writes of earlier events (the last release's talk burst). Their own writes follow in the queue.
  scope.answerNow('floor_request', async (payload) => {
    const at = scope.requireRoom('floor_request', parse(FloorRequest, payload, 'floor_request').room);
    const { outcome, channel } = await requestFloor(socket, scope, at);
    if (outcome.answer.granted) {
      announceThenRecord(scope, 'floor_request', grantChanges(socket, outcome, channel));
    }
    return outcome.answer;
  });

  scope.answerNow('floor_release', async (payload) => {
    const { room, channelId } = scope.requireRoom('floor_release', parse(FloorRequest, payload, 'floor_release').room);
    await scope.floor.free(socket.id, room, channelId);
    announceThenRecord(scope, 'floor_release', [await micOff('floor_release', channelId)]);
    return { success: true };
  });

  scope.on('micStateChange', async (payload) => {
    const change = parse(MicStateChange, payload, 'micStateChange');
    const at = scope.requireRoom('micStateChange', change.room);
    if (!change.micState) {
      await scope.floor.free(socket.id, at.room, at.channelId);
      return scope.changeMicState(await micOff('micStateChange', at.channelId));
    }
    const { outcome, channel } = await requestFloor(socket, scope, at);
    if (!outcome.answer.granted)
      throw new SocketInputError(
        `micStateChange: ${outcome.answer.holder.name} is talking: wait until the channel is free.`,
      );
    await afterGrant(socket, scope, outcome, channel);
  });
};
