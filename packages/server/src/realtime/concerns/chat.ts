/** Chat over the socket: typing, and messages sent through the one sendMessage of messages/send.ts. */
import { ChatMessage, Typing } from '@talkgroup/protocol';
import { channelRoom } from '../../sockets/room-names.ts';
import type { Concern } from '../context.ts';
import { resolveParticipation } from '../participations.ts';
import { parse } from '../socket-tasks.ts';

/** A socket's typing relays: a burst, then so many per second (the web app sends 4 a second while typing). */
const TYPING_BURST = 20;
const TYPING_PER_SECOND = 5;

export const chat: Concern = (socket, scope) => {
  // Typing is relayed the moment it arrives, not behind the socket's queued events (a join's writes, a
  // position, a message being stored): the others see it at once (issue 17: it arrived about 2 s late).
  // The queued task below only checks it and answers its acknowledgement, in order with the rest.
  let tokens = TYPING_BURST;
  let at = performance.now();
  (socket.on as (event: string, listener: (payload?: unknown) => void) => void)('typing', (payload) => {
    const { userId, name } = socket.data;
    const claimed = (payload as { room?: unknown } | null | undefined)?.room;
    let room: string;
    try {
      room = resolveParticipation(socket.data, 'typing', typeof claimed === 'string' ? claimed : undefined).room;
    } catch {
      return;
    }
    const now = performance.now();
    tokens = Math.min(TYPING_BURST, tokens + ((now - at) / 1000) * TYPING_PER_SECOND);
    at = now;
    if (tokens < 1) return;
    tokens -= 1;
    socket.to(channelRoom(room)).emit('typingResponse', { id: socket.id, userId, name, room });
  });
  scope.on('typing', (payload) => {
    // Old clients send typing with no payload or a bare value: only an object can name a room.
    const typing = parse(Typing, payload !== null && typeof payload === 'object' ? payload : {}, 'typing');
    scope.requireRoom('typing', typing.room);
  });

  scope.on('message', async (payload) => {
    const { channelId, message } = parse(ChatMessage, payload, 'message');
    await scope.services.sendMessage({ sender: socket.data, channelId, text: message });
  });
};
