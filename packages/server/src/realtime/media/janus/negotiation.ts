/**
 * What each browser's offer and answer become in Janus (the socket events are signalling.ts's): a talking page
 * publishes in the VideoRoom, every page watches the mountpoint, a spec client or an older page joins the
 * AudioBridge. Each runs in the participant's queue, on the channel's Janus (placement.ts).
 */
import type { MediaLeg } from '@talkgroup/protocol';
import type { JanusBackend } from '../../../janus/backends.ts';
import { type JanusHandle, JanusPluginError } from '../../../janus/connection.ts';
import { LOCAL_GROUP, PREBUFFER_PACKETS } from '../../../janus/room-requests.ts';
import { SPEC_PEER_ID } from '../plane.ts';
import { publisherDisplay } from './feed.ts';
import { attach } from './links.ts';
import { applyHeard } from './on-air.ts';
import { type Participant, serial } from './participants.ts';
import { withRoom } from './placement.ts';
import { type JanusPlaneState, participantOf } from './plane-state.ts';
import { audioMid, tuneAnswer } from './sdp.ts';
import type { MediaSignals, SpecDescription } from './signalling.ts';

/** AudioBridge: this handle already joined (a renegotiation). VideoRoom: likewise. */
const ALREADY_JOINED = [491, 425];

const randomId = () => Math.floor(Math.random() * 2 ** 52) + 1;
const sdpOf = (description: SpecDescription) => (typeof description === 'string' ? description : description.sdp);

/** Joins the participant to the channel's AudioBridge (a spec client, an older page): muted, group local. */
export async function joinBridge(
  state: JanusPlaneState,
  participant: Participant,
  backend: JanusBackend,
  jsep: { type: 'offer'; sdp: string } | undefined,
): Promise<{ type: 'offer' | 'answer'; sdp: string }> {
  await state.rooms.bridge(backend, participant.channelId);
  const { handle } = await attach(state, participant, backend, 'bridge');
  await handle
    .message({
      request: 'join',
      room: participant.channelId,
      pin: state.keys.roomPin(participant.channelId),
      id: randomId(),
      group: LOCAL_GROUP,
      display: participant.name,
      muted: true,
      prebuffer: PREBUFFER_PACKETS,
    })
    .catch((error) => {
      if (!(error instanceof JanusPluginError && ALREADY_JOINED.includes(error.code))) throw error;
    });
  const negotiated = await handle.message(
    jsep ? { request: 'configure', muted: true } : { request: 'configure', muted: true, generate_offer: true },
    jsep,
  );
  if (!negotiated.jsep?.sdp) throw new Error('the media server sent no description for the connection');
  if (participant.heard) await applyHeard(state, participant);
  return { type: negotiated.jsep.type, sdp: jsep ? tuneAnswer(negotiated.jsep.sdp) : negotiated.jsep.sdp };
}

/** A page that talks: publishes its microphone (not forwarded until it holds the floor). */
function publish(state: JanusPlaneState, participant: Participant, sdp: string): Promise<string> {
  const { channelId, socketId } = participant;
  return serial(participant, () =>
    withRoom(state, channelId, socketId, async (backend) => {
      await state.rooms.sfu(backend, channelId);
      const link = await attach(state, participant, backend, 'send');
      const publisherId = randomId();
      const audio = audioMid(sdp);
      if (!audio) throw new Error('the offer carries no audio to publish');
      const answer = await link.handle.message(
        {
          request: 'joinandconfigure',
          ptype: 'publisher',
          room: channelId,
          pin: state.keys.roomPin(channelId),
          id: publisherId,
          display: publisherDisplay(audio.mid, participant.name),
          audiocodec: 'opus',
        },
        { type: 'offer', sdp },
      );
      if (!answer.jsep?.sdp) throw new Error('the media server sent no answer to the offer');
      Object.assign(link, { publisherId, mid: audio.mid, mindex: audio.mindex });
      if (participant.heard) await applyHeard(state, participant);
      return tuneAnswer(answer.jsep.sdp);
    }),
  );
}

/** An older page of the app (one connection that sends and receives): the channel's mixer answers it. */
function bridge(state: JanusPlaneState, participant: Participant, sdp: string): Promise<string> {
  return serial(participant, () =>
    withRoom(
      state,
      participant.channelId,
      participant.socketId,
      async (backend) => (await joinBridge(state, participant, backend, { type: 'offer', sdp })).sdp,
    ),
  );
}

/** A spec client's offer to the media server's peer: answered by the channel's mixer. */
function specOffer(state: JanusPlaneState, participant: Participant, description: SpecDescription) {
  participant.specShape = typeof description === 'string' ? 'string' : 'object';
  const sdp = sdpOf(description);
  return serial(participant, () =>
    withRoom(state, participant.channelId, participant.socketId, async (backend): Promise<SpecDescription> => {
      const answer = await joinBridge(state, participant, backend, { type: 'offer', sdp });
      return participant.specShape === 'string' ? answer.sdp : { type: 'answer', sdp: answer.sdp };
    }),
  );
}

/** A spec client's answer to the server's own offer (after a reset). */
function specAnswer(participant: Participant, description: SpecDescription): Promise<boolean> {
  const sdp = sdpOf(description);
  return serial(participant, async () => {
    const link = participant.bridge;
    if (!link) return false;
    await link.handle.message({ request: 'configure', muted: !participant.onAir }, { type: 'answer', sdp });
    return true;
  });
}

/** Every page hears the channel: Janus offers its mountpoint. */
function watch(state: JanusPlaneState, participant: Participant): Promise<string> {
  const { channelId, socketId } = participant;
  return serial(participant, () =>
    withRoom(state, channelId, socketId, async (backend) => {
      await state.rooms.mountpoint(backend, channelId);
      const { handle } = await attach(state, participant, backend, 'watch');
      const offered = await handle.message({ request: 'watch', id: channelId, pin: state.keys.roomPin(channelId) });
      if (!offered.jsep?.sdp) throw new Error('the media server sent no offer for the channel');
      return offered.jsep.sdp;
    }),
  );
}

/** The page's answer to the mountpoint's offer starts its stream. */
function answer(participant: Participant, sdp: string): Promise<boolean> {
  return serial(participant, async () => {
    const link = participant.watch;
    if (!link) return false;
    await link.handle.message({ request: 'start' }, { type: 'answer', sdp });
    return true;
  });
}

function handleOf(participant: Participant, leg: MediaLeg | undefined): JanusHandle | undefined {
  if (leg === 'receive') return participant.watch?.handle;
  if (leg === 'send') return participant.send?.handle;
  return (participant.send ?? participant.bridge ?? participant.watch)?.handle;
}

/** The signals of signalling.ts, for the participants of this instance (undefined: not one of them). */
export function janusNegotiation(state: JanusPlaneState): MediaSignals {
  const of = (channelId: number, socketId: string) => participantOf(state, channelId, socketId);
  const ifThere = <T>(participant: Participant | undefined, work: (participant: Participant) => T) =>
    participant ? work(participant) : undefined;
  return {
    specPeerId: SPEC_PEER_ID,
    publish: (channelId, socketId, sdp) => ifThere(of(channelId, socketId), (it) => publish(state, it, sdp)),
    bridge: (channelId, socketId, sdp) => ifThere(of(channelId, socketId), (it) => bridge(state, it, sdp)),
    specOffer: (channelId, socketId, sdp) => ifThere(of(channelId, socketId), (it) => specOffer(state, it, sdp)),
    specAnswer: (channelId, socketId, sdp) => ifThere(of(channelId, socketId), (it) => specAnswer(it, sdp)),
    watch: (channelId, socketId) => ifThere(of(channelId, socketId), (it) => watch(state, it)),
    answer: (channelId, socketId, sdp) => ifThere(of(channelId, socketId), (it) => answer(it, sdp)),
    handleOf: (channelId, socketId, leg) => ifThere(of(channelId, socketId), (it) => handleOf(it, leg)),
    specHandleOf: (channelId, socketId) => of(channelId, socketId)?.bridge?.handle,
  };
}
