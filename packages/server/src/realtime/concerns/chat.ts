/** Chat over the socket: typing, and messages sent through the one sendMessage of messages/send.ts. */
import { ChatMessage, Typing } from '@talkgroup/protocol';
import type { Concern } from '../context.ts';
import { channelRoom } from '../room-names.ts';
import { parse } from '../socket-tasks.ts';

export const chat: Concern = (socket, scope) => {
  scope.on('typing', (payload) => {
    // Old clients send typing with no payload or a bare value: only an object can name a room.
    const typing = parse(Typing, payload !== null && typeof payload === 'object' ? payload : {}, 'typing');
    const { room } = scope.requireRoom('typing', typing.room);
    const { userId, name } = socket.data;
    socket.to(channelRoom(room)).emit('typingResponse', { id: socket.id, userId, name, room });
  });

  const send = (event: 'message' | 'message created') => async (payload: unknown) => {
    const { channelId, message } = parse(ChatMessage, payload, event);
    await scope.services.sendMessage({ sender: socket.data, channelId, text: message });
  };
  scope.on('message', send('message'));
  scope.on('message created', send('message created'));
};
