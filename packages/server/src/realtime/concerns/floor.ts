/**
 * The floor's socket events (the floor itself is in floor/): `floor_request` (a press) and `floor_release`. A press is decided and shown at
 * once, beside the socket's queue: a grant must never wait behind the writes of earlier events (the last
 * release's talk burst). Its talk bursts follow in the queue, in the order the events came, once the answer
 * is on its way (node:sqlite writes on this thread: bench/ptt-latency, bench/floor-grant).
 */
import { FloorRequest } from '@talkgroup/protocol';
import type { Talker } from '../../floor/push-to-talk.ts';
import type { Concern, SocketScope } from '../context.ts';
import type { MicChange, TalkSocket } from '../io.ts';
import { parse } from '../socket-tasks.ts';

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
    const { answer, changes } = await scope.talk.press(talkerOf(socket), at);
    recordInQueue(scope, 'floor_request', changes);
    return answer;
  });

  scope.answerNow('floor_release', async (payload) => {
    const at = scope.requireRoom('floor_release', parse(FloorRequest, payload, 'floor_release').room);
    recordInQueue(scope, 'floor_release', [await scope.talk.release(talkerOf(socket), at)]);
    return { success: true };
  });
};
