/**
 * The spec's client events, translated into the core's calls: `micStateChange` (true is a press, false a
 * release: the floor decides, as for `floor_request`) and `message created` (a chat message, as `message`).
 */
import { ChatMessage, MicStateChange } from '@talkgroup/protocol';
import { recordInQueue, talkerOf } from '../concerns/floor.ts';
import type { Concern } from '../context.ts';
import { parse, SocketInputError } from '../socket-tasks.ts';

export const specSocketEvents: Concern = (socket, scope) => {
  scope.on('micStateChange', async (payload) => {
    const change = parse(MicStateChange, payload, 'micStateChange');
    const at = scope.requireRoom('micStateChange', change.room);
    if (!change.micState) return scope.talk.record([await scope.talk.release(talkerOf(socket), at)]);
    const { answer, changes } = await scope.talk.press(talkerOf(socket), at);
    if ('holder' in answer)
      throw new SocketInputError(`micStateChange: ${answer.holder.name} is talking: wait until the channel is free.`);
    if (!answer.granted) throw new SocketInputError('micStateChange: you may only listen in this channel.');
    recordInQueue(scope, 'micStateChange', changes);
  });

  scope.on('message created', async (payload) => {
    const { channelId, message } = parse(ChatMessage, payload, 'message created');
    await scope.services.sendMessage({ sender: socket.data, channelId, text: message });
  });
};
