/**
 * All call (the dispatch console, issue 27): `broadcast_request { rooms }` takes the floor of each of these
 * channels of the socket with one floor decision per channel (the same atomic take as a press, across
 * instances), so that a dispatcher breaks in on members everywhere at once; `broadcast_release` gives them back.
 * The answer says which channels are the caller's now and why the others are not. The page then lets its
 * microphone be heard in every granted channel: each hears the same voice, on the mesh or the media server.
 */
import { randomUUID } from 'node:crypto';
import { type BroadcastAnswer, BroadcastRequest } from '@talkgroup/protocol';
import { broadcastRefusal, mayCallAll } from '../../floor/policy.ts';
import type { Concern } from '../context.ts';
import type { MicChange } from '../io.ts';
import { participationByRoom } from '../participations.ts';
import { parse, SocketInputError } from '../socket-tasks.ts';
import { recordInQueue, talkerOf } from './floor.ts';

export const broadcast: Concern = (socket, scope) => {
  scope.answerNow('broadcast_request', async (payload): Promise<BroadcastAnswer> => {
    const { rooms } = parse(BroadcastRequest, payload, 'broadcast_request');
    if (!mayCallAll(socket.data))
      throw new SocketInputError('broadcast_request: your role does not allow an all call.');
    const answer: BroadcastAnswer = { granted: [], refused: [] };
    const kept: MicChange[] = [];
    // One grant id for the whole call: its one recording names it, and is kept in each channel granted.
    const grantId = randomUUID();
    // One recording for the whole call, kept in each channel (issue 37).
    const channelIds = rooms.flatMap((room) => participationByRoom(socket.data, room)?.channelId ?? []);
    scope.media.allCall(socket.id, channelIds);
    for (const room of rooms) {
      const at = participationByRoom(socket.data, room);
      const refusal = broadcastRefusal(socket.data, at);
      if (refusal || !at) {
        answer.refused.push({ room, reason: refusal ?? 'not_joined' });
        continue;
      }
      const { answer: floor, changes } = await scope.talk.press(talkerOf(socket), at, { grantId });
      kept.push(...changes);
      if (floor.granted) answer.granted.push(room);
      else if ('holder' in floor) answer.refused.push({ room, reason: 'busy', holder: floor.holder });
      else answer.refused.push({ room, reason: 'listen_only' });
    }
    recordInQueue(scope, 'broadcast_request', kept);
    return answer.granted.length > 0 ? { ...answer, grantId } : answer;
  });

  scope.answerNow('broadcast_release', async (payload) => {
    const { rooms } = parse(BroadcastRequest, payload, 'broadcast_release');
    const released: MicChange[] = [];
    for (const room of rooms) {
      const at = participationByRoom(socket.data, room);
      if (at) released.push(await scope.talk.release(talkerOf(socket), at));
    }
    scope.media.allCall(socket.id, null);
    recordInQueue(scope, 'broadcast_release', released);
    return { success: true };
  });
};
