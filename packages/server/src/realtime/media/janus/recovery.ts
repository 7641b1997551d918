/**
 * A participant whose links with Janus are gone (its Janus down, the channel moved, a handle hung up) starts
 * over: a page is told (`media_reset`) and offers again; a spec client, which knows nothing of resets, is told
 * its peer left and is offered a new connection by the server until one is made or it left.
 */

import type { JanusBackend } from '../../../janus/backends.ts';
import { JanusUnavailableError } from '../../../janus/connection.ts';
import { dropLinks } from './links.ts';
import { joinBridge } from './negotiation.ts';
import { linksOf, type Participant, serial } from './participants.ts';
import { withRoom } from './placement.ts';
import { everyone, type JanusPlaneState, participantOf } from './plane-state.ts';

const LOST = 'The media server restarted: reconnecting the voice.';
const SPEC_REOFFER_MS = 1_000;

/** Its links are gone: it is told, and starts over (a spec client: the server offers again). */
export function startOver(state: JanusPlaneState, participant: Participant, reason: string): void {
  void dropLinks(state, participant, true);
  // A gateway's call cannot offer again: it ends (its gateway dials again, to a media server that answers).
  if (participant.lost) participant.lost(reason);
  else if (participant.spec) {
    state.options.tellSpecClient?.(participant.socketId, participant.channelId, { kind: 'gone' });
    scheduleSpecOffer(state, participant);
  } else state.options.resetSocket(participant.socketId, participant.channelId, reason);
}

/** A Janus went down: what was made on it is forgotten, and everyone linked to it starts over. */
export function backendDown(state: JanusPlaneState, backend: JanusBackend): void {
  state.rooms.forgetAll(backend);
  for (const participant of everyone(state))
    if (linksOf(participant).some((link) => link.backend === backend)) startOver(state, participant, LOST);
}

/** The server offers a spec client its connection again (after a reset), until it is made or it left. */
export function scheduleSpecOffer(state: JanusPlaneState, participant: Participant): void {
  if (participant.reoffer) return;
  participant.reoffer = setTimeout(() => {
    participant.reoffer = undefined;
    if (participantOf(state, participant.channelId, participant.socketId) !== participant || participant.bridge) return;
    void serial(participant, () =>
      withRoom(state, participant.channelId, participant.socketId, (backend) =>
        joinBridge(state, participant, backend, undefined),
      ),
    )
      .then((offer) =>
        state.options.tellSpecClient?.(participant.socketId, participant.channelId, {
          kind: 'offer',
          sdp: participant.specShape === 'string' ? offer.sdp : { type: 'offer', sdp: offer.sdp },
        }),
      )
      .catch((error) => {
        if (!(error instanceof JanusUnavailableError))
          state.log.warn({ err: error, channelId: participant.channelId }, 'could not offer a spec client its voice');
        scheduleSpecOffer(state, participant);
      });
  }, SPEC_REOFFER_MS);
  participant.reoffer.unref();
}
