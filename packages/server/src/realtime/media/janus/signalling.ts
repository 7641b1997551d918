/**
 * The socket events of a channel through the media server: a page that talks offers (`media_offer`, answered
 * with Janus's SDP) and trickles its candidates (`media_candidate`); a page that only listens asks for the
 * channel's mix (`media_watch`, answered with Janus's offer) and answers it (`media_answer`). Each names its
 * channel, which the socket must be in: the token and the join's `may()` guard what reaches Janus.
 */
import { MediaAnswer, MediaCandidate, MediaOffer, MediaWatch } from '@talkgroup/protocol';
import type { Concern } from '../../context.ts';
import { parse, SocketInputError } from '../../socket-tasks.ts';
import { type JanusHandle, JanusUnavailableError } from './connection.ts';

export interface MediaSignals {
  /** Janus's answer to a talking page's offer; undefined: the socket is not in the channel's media. */
  offer(channelId: number, socketId: string, sdp: string): Promise<string> | undefined;
  /** Janus's offer of the channel's mix to a listening page. */
  watch(channelId: number, socketId: string): Promise<string> | undefined;
  /** The listening page's answer; false: there was no offer to answer. */
  answer(channelId: number, socketId: string, sdp: string): Promise<boolean> | undefined;
  handleOf(channelId: number, socketId: string): JanusHandle | undefined;
}

const UNREACHABLE = 'the media server is not reachable now: the voice comes back by itself.';

async function mediaCall<T>(event: string, call: Promise<T> | undefined): Promise<T> {
  if (!call) throw new SocketInputError(`${event}: this channel's voice does not go through the media server here.`);
  try {
    return await call;
  } catch (error) {
    if (error instanceof JanusUnavailableError) throw new SocketInputError(`${event}: ${UNREACHABLE}`);
    throw error;
  }
}

export function janusSignalling(signals: MediaSignals): Concern {
  return (socket, scope) => {
    scope.answer('media_offer', async (payload) => {
      const { room, sdp } = parse(MediaOffer, payload, 'media_offer');
      const { channelId } = scope.requireRoom('media_offer', room);
      return { success: true, sdp: await mediaCall('media_offer', signals.offer(channelId, socket.id, sdp)) };
    });
    scope.answer('media_watch', async (payload) => {
      const { room } = parse(MediaWatch, payload, 'media_watch');
      const { channelId } = scope.requireRoom('media_watch', room);
      return { success: true, sdp: await mediaCall('media_watch', signals.watch(channelId, socket.id)) };
    });
    scope.on('media_answer', async (payload) => {
      const { room, sdp } = parse(MediaAnswer, payload, 'media_answer');
      const { channelId } = scope.requireRoom('media_answer', room);
      if (!(await mediaCall('media_answer', signals.answer(channelId, socket.id, sdp))))
        throw new SocketInputError('media_answer: ask for the channel first (media_watch).');
    });
    scope.on('media_candidate', async (payload) => {
      const { room, candidate } = parse(MediaCandidate, payload, 'media_candidate');
      const { channelId } = scope.requireRoom('media_candidate', room);
      // Candidates after a reset are of no use: the next offer has its own.
      await signals
        .handleOf(channelId, socket.id)
        ?.trickle(candidate)
        .catch(() => {});
    });
  };
}
