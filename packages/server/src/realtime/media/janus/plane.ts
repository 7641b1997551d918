/**
 * Channels through a media server: Janus (issues 26 and 37). Browsers never speak to Janus's API: this server
 * holds the Janus sessions and handles and relays each browser's SDP over the socket (signalling.ts), so that
 * the token and `may()` guard everything and only media (RTP, or TURN) reaches Janus from browsers.
 *
 * - Each channel is carried by one Janus (assignments.ts: the same for every app instance), in rooms made on
 *   demand and destroyed when nobody is left (rooms.ts).
 * - A page that may talk publishes its microphone in the channel's VideoRoom (`send`); every page watches the
 *   channel's mountpoint (`receive`). Only the floor holder's packets are forwarded to the mountpoint, as they
 *   arrived (feed.ts): no decoding, no mixer's tick, no encoding again. A talker's change renegotiates nothing.
 * - The floor is enforced in Janus: a grant starts the holder's forward (and its recording: takes.ts), a
 *   release, revoke, timeout or preemption stops it; a browser that enables its own track without the floor
 *   is not heard. Floor changes run in order per participant.
 * - A spec client (the spec's mesh events, one connection that sends and receives) sees the media server as
 *   one peer named as the channel (`SPEC_PEER_ID`): its offer is answered by the channel's AudioBridge, where
 *   it hears every talker (the holder is forwarded to the bridge's relay) and, holding the floor, is heard.
 *   An older page of the app (an offer without a leg) is answered the same way.
 * - The participant's handles live on the instance that holds its socket; a floor change decided elsewhere
 *   reaches it through `relay` (between instances) and `apply`.
 * - A Janus lost (killed, hung, restarting) is noticed within seconds (connection.ts): its participants are
 *   told (`media_reset`) and offer again, to another Janus if one is alive; with none left the channels go
 *   peer to peer (plane.ts moves them) and come back once one answers again.
 *
 * Its parts, each a set of functions over one state (plane-state.ts): participants.ts (a participant and its
 * links), links.ts (attaching and dropping a link), placement.ts (which Janus carries a channel), negotiation.ts
 * (offers and answers), on-air.ts (the floor: forwarding and recording), recovery.ts (starting over after a
 * loss), channel-media.ts (one channel here: admit, remove, close). This file puts them together and says
 * whether a Janus answers.
 */
import type { FastifyBaseLogger } from 'fastify';
import {
  type JanusBackend,
  type JanusBackends,
  janusBackends,
  type MediaServerHealth,
} from '../../../janus/backends.ts';
import { janusKeys } from '../../../janus/secrets.ts';
import { channelRegistry, type ServerPlane } from '../plane.ts';
import { JanusChannelMedia } from './channel-media.ts';
import { janusFeed } from './feed.ts';
import { janusNegotiation } from './negotiation.ts';
import { setHeard } from './on-air.ts';
import { janusPatches } from './patches.ts';
import { backendFor } from './placement.ts';
import { everyone, type JanusPlaneOptions, type JanusPlaneState, participantOf } from './plane-state.ts';
import { backendDown, startOver } from './recovery.ts';
import { type JanusRooms, janusRooms } from './rooms.ts';
import { joinRtp } from './rtp-participants.ts';
import { janusSignalling } from './signalling.ts';

export type { JanusPlaneOptions, SpecMessage } from './plane-state.ts';
export type { MediaServerHealth };

/** Whether any Janus answers, told to the listeners when it changes (the planes move the channels then). */
class Availability {
  readonly #listeners = new Set<(available: boolean) => void>();
  readonly #now: () => boolean;
  #was = false;

  constructor(now: () => boolean) {
    this.#now = now;
  }

  announce(): void {
    const now = this.#now();
    if (now === this.#was) return;
    this.#was = now;
    for (const listener of this.#listeners) listener(now);
  }

  /** Takes the answer as it is now without telling anyone (at start); returns it. */
  settle(): boolean {
    this.#was = this.#now();
    return this.#was;
  }

  listen(listener: (available: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** Resolves once a Janus answers, or soon (then channels start peer to peer and move when one is up). */
async function ready(backends: JanusBackends, availability: Availability, log: FastifyBaseLogger): Promise<void> {
  await backends.ready();
  const available = availability.settle();
  // A Janus that does not answer at start is said once, in words an operator acts on; its connection keeps
  // trying, and says "media server connected" once it answers.
  for (const backend of backends.all) {
    if (backend.up) continue;
    const why = backend.connection.lastError?.message ?? 'no answer yet';
    const meanwhile = available
      ? 'the other media servers take its channels'
      : 'the server serves meanwhile with voice peer to peer, and /readyz answers 503 (not ready)';
    log.warn(
      { url: backend.url, why },
      `the media server at JANUS_URL ${backend.url} does not answer (${why}): ${meanwhile}; it keeps trying and moves the channels to it once it answers`,
    );
  }
}

/** Each Janus: reachable now, the channel rooms this instance has on it, why it last failed (/readyz). */
function health(backends: JanusBackends, rooms: JanusRooms): MediaServerHealth[] {
  return backends.all.map((backend) => ({
    url: backend.url,
    reachable: backend.up,
    rooms: backend.up ? rooms.count(backend) : 0,
    lastError: backend.connection.lastError,
  }));
}

export function janusPlane(options: JanusPlaneOptions) {
  const { log, takes, store } = options;
  const availability = new Availability(() => backends.alive().length > 0);
  /** Who else hears that a Janus was lost (live video's streams through it end). */
  const downListeners = new Set<(backend: JanusBackend) => void>();
  const backends = janusBackends({
    urls: options.urls,
    apiSecret: options.apiSecret,
    log,
    fault: options.fault,
    onUp: () => {
      availability.announce();
      patches.reapply();
    },
    onDown: (backend) => {
      backendDown(state, backend);
      availability.announce();
      for (const listener of downListeners) listener(backend);
    },
  });
  const keys = janusKeys(options.apiSecret);
  const rooms = janusRooms({ store, log, keys });
  const patches = janusPatches({
    backends,
    rooms,
    store,
    log,
    keys,
    backendFor: (channelId) => backendFor(state, channelId),
    activePatches: options.activePatches,
    refeed: (backend, channelId) => feed.apply(backend, channelId),
  });
  const feed = janusFeed({ rooms, keys, store, log, patched: (channelId) => patches.holds(channelId) });
  const state: JanusPlaneState = {
    options,
    log,
    takes,
    store,
    keys,
    backends,
    rooms,
    feed,
    patches,
    channels: new Map(),
    placed: new Map(),
    allCalls: new Map(),
    startOver: (participant, reason) => startOver(state, participant, reason),
  };
  const registry = channelRegistry((channelId, closed) => new JanusChannelMedia(state, channelId, closed));

  const plane: ServerPlane = {
    kind: 'server',
    concern: janusSignalling(janusNegotiation(state)),
    ...registry,
    async stop() {
      patches.stop();
      for (const participant of everyone(state)) clearTimeout(participant.reoffer);
      await registry.stop();
      await backends.stop();
    },
    /** A floor change relayed by another instance: applied if this one holds the participant. */
    async apply(channelId, socketId, heard) {
      const participant = participantOf(state, channelId, socketId);
      if (participant) await setHeard(state, participant, heard);
    },
    available: () => backends.alive().length > 0,
    onAvailability: (listener) => availability.listen(listener),
    async patch(patchId, channelIds) {
      options.sharePatch?.(patchId, channelIds);
      await patches.patch(patchId, channelIds);
    },
    async unpatch(patchId) {
      options.sharePatch?.(patchId, null);
      await patches.unpatch(patchId);
    },
    /** A SIP gateway's call: a participant of the channel's mixer fed by plain RTP (rtp-participants.ts). */
    async joinRtp(channelId, participant, leg) {
      await registry.channel(channelId).admit(participant);
      const admitted = participantOf(state, channelId, participant.socketId);
      if (!admitted) throw new Error('the gateway left the channel while joining');
      return joinRtp(state, admitted, leg);
    },
    /** The first of the all call's channels on the air records it for all of them. */
    allCall(socketId, channelIds) {
      if (channelIds) state.allCalls.set(socketId, { channelIds, aired: new Set() });
      else state.allCalls.delete(socketId);
    },
  };
  return Object.assign(plane, {
    /** Live video goes through the same Janus instances, in rooms of its own (video/janus-video.ts). */
    backends,
    keys,
    onBackendDown(listener: (backend: JanusBackend) => void): () => void {
      downListeners.add(listener);
      return () => downListeners.delete(listener);
    },
    ready: () => ready(backends, availability, log),
    health: () => health(backends, rooms),
    /** Another instance made or ended a patch (null). */
    learnPatch: (patchId: string, channelIds: number[] | null) => patches.learn(patchId, channelIds),
    /** Another instance moved this channel: participants linked to the old Janus here start over. */
    async movedElsewhere(channelId: number) {
      if (!state.channels.has(channelId)) return;
      await backendFor(state, channelId, true);
    },
  });
}

export type JanusPlane = ReturnType<typeof janusPlane>;
