/**
 * The socket events of a channel through the media server. Each names its channel, which the socket must be
 * in: the token and the join's `may()` guard what reaches Janus.
 *
 * - The app's pages: a page that may talk offers its microphone (`media_offer` with `leg: 'send'`, answered
 *   with Janus's SDP); every page asks for the channel's voice (`media_watch`, answered with Janus's offer) and
 *   answers it (`media_answer`); both trickle their candidates (`media_candidate`, naming the leg). An offer
 *   without a leg (an older page) is one connection that sends and receives, answered by the channel's mixer.
 * - The spec's clients know only the mesh events: in a `server` channel the media server is one peer for them
 *   (SPEC_PEER_ID, named as the channel). Their `offer` to it is answered with `getAnswer`, their `candidate`s
 *   go to Janus, and their `answer` completes an offer the server made them (`getOffer`, after a reset). The
 *   mesh's relay (mesh.ts) sees the same events and finds no socket of that id: nothing else happens.
 */
import {
  Answer,
  Candidate,
  MediaAnswer,
  MediaCandidate,
  type MediaLeg,
  MediaOffer,
  MediaWatch,
  Offer,
} from '@talkgroup/protocol';
import { type JanusHandle, JanusUnavailableError } from '../../../janus/connection.ts';
import type { SocketConcern } from '../../io.ts';
import { parse, SocketInputError } from '../../socket-tasks.ts';

/** A description as a spec client sends it: the SDP text, or `{ type, sdp }` (RTCSessionDescriptionInit). */
export type SpecDescription = string | { type: string; sdp: string };

export interface MediaSignals {
  /** The id of the media server's peer for the spec's clients. */
  specPeerId: string;
  /** Janus's answer to a talking page's offer of its microphone; undefined: the socket is not in the channel's media. */
  publish(channelId: number, socketId: string, sdp: string): Promise<string> | undefined;
  /** Janus's answer to an offer without a leg (sends and receives, through the mixer). */
  bridge(channelId: number, socketId: string, sdp: string): Promise<string> | undefined;
  /** Janus's offer of the channel's voice to a page. */
  watch(channelId: number, socketId: string): Promise<string> | undefined;
  /** The page's answer to it; false: there was no offer to answer. */
  answer(channelId: number, socketId: string, sdp: string): Promise<boolean> | undefined;
  handleOf(channelId: number, socketId: string, leg: MediaLeg | undefined): JanusHandle | undefined;
  /** A spec client's offer to the media server's peer: the answer, in the shape the offer came in. */
  specOffer(channelId: number, socketId: string, sdp: SpecDescription): Promise<SpecDescription> | undefined;
  /** A spec client's answer to the server's offer; false: there was none. */
  specAnswer(channelId: number, socketId: string, sdp: SpecDescription): Promise<boolean> | undefined;
  specHandleOf(channelId: number, socketId: string): JanusHandle | undefined;
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

/** A spec client's description: the SDP text, or an object with it (anything else is refused). */
function specDescription(event: string, value: unknown): SpecDescription {
  if (typeof value === 'string' && value.length > 0 && value.length <= 100_000) return value;
  const sdp = (value as { sdp?: unknown } | null)?.sdp;
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof sdp === 'string' && sdp.length > 0 && sdp.length <= 100_000)
    return { type: typeof type === 'string' ? type : '', sdp };
  throw new SocketInputError(`${event}: sdp must be a session description.`);
}

export function janusSignalling(signals: MediaSignals): SocketConcern {
  return (socket, scope) => {
    scope.answer('media_offer', async (payload) => {
      const { room, sdp, leg } = parse(MediaOffer, payload, 'media_offer');
      const { channelId } = scope.requireRoom('media_offer', room);
      const answered =
        leg === 'send' ? signals.publish(channelId, socket.id, sdp) : signals.bridge(channelId, socket.id, sdp);
      return { success: true, sdp: await mediaCall('media_offer', answered) };
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
      const { room, candidate, leg } = parse(MediaCandidate, payload, 'media_candidate');
      const { channelId } = scope.requireRoom('media_candidate', room);
      // Candidates after a reset are of no use: the next offer has its own.
      await signals
        .handleOf(channelId, socket.id, leg)
        ?.trickle(candidate)
        .catch(() => {});
    });

    // The spec's clients, speaking to the media server's peer.
    scope.on('offer', async (payload) => {
      const offer = parse(Offer, payload, 'offer');
      if (offer.offerReceiveID !== signals.specPeerId) return;
      const { channelId, room } = scope.requireRoom('offer', offer.room);
      const sdp = specDescription('offer', offer.sdp);
      const answer = await mediaCall('offer', signals.specOffer(channelId, socket.id, sdp));
      socket.emit('getAnswer', { sdp: answer, answerSendID: signals.specPeerId, room });
    });
    scope.on('answer', async (payload) => {
      const answer = parse(Answer, payload, 'answer');
      if (answer.answerReceiveID !== signals.specPeerId) return;
      const { channelId } = scope.requireRoom('answer', answer.room);
      const sdp = specDescription('answer', answer.sdp);
      if (!(await mediaCall('answer', signals.specAnswer(channelId, socket.id, sdp))))
        throw new SocketInputError('answer: the media server made no offer to answer.');
    });
    scope.on('candidate', async (payload) => {
      const candidate = parse(Candidate, payload, 'candidate');
      if (candidate.candidateReceiveID !== signals.specPeerId) return;
      const { channelId } = scope.requireRoom('candidate', candidate.room);
      await signals
        .specHandleOf(channelId, socket.id)
        ?.trickle(candidate.candidate)
        .catch(() => {});
    });
  };
}
