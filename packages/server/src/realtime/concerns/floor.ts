/**
 * The floor's socket events (the floor itself is in floor/): `floor_request` (a press) and `floor_release`;
 * the queue's `floor_cancel` and `floor_queue_remove` (issue 59). A press is decided and shown at
 * once, beside the socket's queue: a grant must never wait behind the writes of earlier events (the last
 * release's talk burst). Its talk bursts follow in the queue, in the order the events came, once the answer
 * is on its way (node:sqlite writes on this thread: bench/ptt-latency, bench/floor-grant).
 */
import { FloorCancel, FloorQueueRemove, FloorRequest, may } from '@talkgroup/protocol';
import { standingOf } from '../../channels/membership.ts';
import type { Talker } from '../../floor/push-to-talk.ts';
import type { Concern, SocketScope } from '../context.ts';
import type { MicChange, TalkSocket } from '../io.ts';
import { participationByRoom, standingIn } from '../participations.ts';
import { parse } from '../socket-tasks.ts';

/**
 * The channel whose queue a dispatcher's console acts on (issue 59): one it is in, or one it may dispatch from
 * outside its room; undefined when the socket's user may not dispatch there.
 */
async function queueOf(
  socket: TalkSocket,
  scope: SocketScope,
  room: string,
): Promise<{ room: string; channelId: number } | undefined> {
  const actor = { role: socket.data.role, mapRight: socket.data.mapRight };
  const at = participationByRoom(socket.data, room);
  if (at) return may(actor, standingIn(at), 'channel.dispatch') ? at : undefined;
  const channel = await scope.services.channels.byRtcSession(room);
  if (!channel || channel.hidden) return undefined;
  const standing = standingOf(await scope.services.memberships.rights(channel.id, socket.data.userId));
  return may(actor, standing, 'channel.dispatch') ? { room: channel.rtcSession, channelId: channel.id } : undefined;
}

export function talkerOf(socket: TalkSocket): Talker {
  const { userId, name, role, talkPriority } = socket.data;
  return { userId, name, role, socketId: socket.id, talkPriority };
}

/** Keeps mic changes already shown, in the socket's queue, starting on the next turn (after the answer). */
export function recordInQueue(scope: SocketScope, event: string, changes: MicChange[]): void {
  if (changes.length === 0) return;
  void scope.run(event, async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await scope.talk.record(changes);
  });
}

export const floorRequests: Concern = (socket, scope) => {
  scope.answerNow('floor_request', async (payload) => {
    const at = scope.requireRoom('floor_request', parse(FloorRequest, payload, 'floor_request').room);
    // Issue 59: a socket's press on a busy floor waits in the channel's queue (when the channel has one).
    const { answer, changes } = await scope.talk.press(talkerOf(socket), at, { queue: true });
    recordInQueue(scope, 'floor_request', changes);
    return answer;
  });

  scope.answerNow('floor_cancel', async (payload) => {
    const at = scope.requireRoom('floor_cancel', parse(FloorCancel, payload, 'floor_cancel').room);
    const left = await scope.floor.queue.cancel(socket.id, at.room, at.channelId);
    return left ? { success: true } : { success: false, result: 'This socket is not in the floor queue.' };
  });

  scope.answerNow('floor_queue_remove', async (payload) => {
    const body = parse(FloorQueueRemove, payload, 'floor_queue_remove');
    const at = await queueOf(socket, scope, body.room);
    // A dispatcher of the channel or an administrator; a member's removal is ignored.
    if (!at)
      return {
        success: false,
        result: 'Only a dispatcher of this channel or an administrator removes from its queue.',
      };
    const removed = await scope.floor.queue.remove(body.userId, at.room, at.channelId);
    return removed ? { success: true } : { success: false, result: 'This user is not in the floor queue.' };
  });

  scope.answerNow('floor_release', async (payload) => {
    const at = scope.requireRoom('floor_release', parse(FloorRequest, payload, 'floor_release').room);
    recordInQueue(scope, 'floor_release', [await scope.talk.release(talkerOf(socket), at)]);
    return { success: true };
  });
};
