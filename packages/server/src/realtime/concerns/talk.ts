/** Push-to-talk: the mic state pushed to the room first, then kept as talk bursts and channel_talk entries. */
import { MicStateChange } from '@talkgroup/protocol';
import type { Concern, MicChange, RealtimeContext, TalkSocket } from '../context.ts';
import { channelRoom } from '../room-names.ts';
import { parse, SocketInputError } from '../socket-tasks.ts';

type TalkDeps = Pick<RealtimeContext, 'services' | 'emitTo'>;

async function endBurst({ services }: TalkDeps, userId: number, channelId: number): Promise<boolean> {
  if ((await services.talkBursts.end(userId, channelId)) === 0) return false;
  await services.activities.record('channel_talk', { userId, channelId });
  return true;
}

export function talkActions(deps: TalkDeps): Pick<RealtimeContext, 'changeMicState' | 'endTalkOnLeave'> {
  const { services, emitTo } = deps;
  return {
    async changeMicState(change: MicChange) {
      const { channel, on } = change;
      // Pushed first: the others' speaker icons must follow the button, the bookkeeping can come after.
      emitTo([channelRoom(channel.rtcSession)], 'onMicStateChanged', {
        id: change.socketId,
        userId: change.userId,
        name: change.name,
        micState: on,
        room: channel.rtcSession,
      });
      if (on) await services.talkBursts.start(change.userId, channel);
      else await endBurst(deps, change.userId, channel.id);
      await services.presence.setMicState(change.userId, channel.id, on);
    },

    // Leaving while talking ends the burst; the others see the mic go off.
    async endTalkOnLeave(socket: TalkSocket, room: string, channelId: number) {
      const { userId, name } = socket.data;
      if ((await services.talkBursts.end(userId, channelId)) === 0) return;
      emitTo([channelRoom(room)], 'onMicStateChanged', { id: socket.id, userId, name, micState: false, room });
      await services.activities.record('channel_talk', { userId, channelId });
    },
  };
}

export const talk: Concern = (socket, scope) => {
  scope.on('micStateChange', async (payload) => {
    const change = parse(MicStateChange, payload, 'micStateChange');
    const { channelId } = scope.requireRoom('micStateChange', change.room);
    const channel = await scope.services.channels.byId(channelId);
    if (!channel) throw new SocketInputError('micStateChange: this channel no longer exists.');
    await scope.changeMicState({
      userId: socket.data.userId,
      name: socket.data.name,
      channel,
      socketId: socket.id,
      on: change.micState,
    });
  });
};
