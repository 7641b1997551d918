/**
 * What the parts of the Janus plane share (plane.ts builds it once): the options it was given, the pieces that
 * speak to Janus (backends, rooms, feed, patches, takes), and this instance's participants with their links.
 * Each part is a set of functions over this state, so that a reader follows a name rather than a closure.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AssignmentStore } from '../../../janus/assignments.ts';
import type { JanusBackends } from '../../../janus/backends.ts';
import type { JanusKeys } from '../../../janus/secrets.ts';
import type { JanusFeed } from './feed.ts';
import type { Participant } from './participants.ts';
import type { JanusPatches, PatchList } from './patches.ts';
import type { JanusRooms } from './rooms.ts';
import type { SpecDescription } from './signalling.ts';
import type { Takes } from './takes.ts';

export interface JanusPlaneOptions {
  urls: string[];
  apiSecret?: string;
  log: FastifyBaseLogger;
  /** An answer of Janus's that could not be handled (process/faults.ts). */
  fault?: (error: unknown) => void;
  takes: Takes;
  store: AssignmentStore;
  /** Tells a socket of this instance that its media link is gone (`media_reset`). */
  resetSocket: (socketId: string, channelId: number, reason: string) => void;
  /**
   * Speaks to a spec client of this instance as the media server's peer (`getOffer`, `user_exit`): the
   * channel's rtcSession and name are filled in by the caller.
   */
  tellSpecClient?: (socketId: string, channelId: number, message: SpecMessage) => void;
  /** Hands a floor change to the instance that holds the participant's socket. */
  relay: (channelId: number, socketId: string, heard: boolean) => void;
  /** This instance moved a channel to another Janus: the others drop their participants' old links. */
  moved: (channelId: number) => void;
  /** The patches in force (the dispatch console keeps them), applied again when rooms are made again. */
  activePatches?: PatchList;
  /** A patch made or ended here (null): the other instances learn it. */
  sharePatch?: (patchId: string, channelIds: number[] | null) => void;
}

/** What the media server's peer says to a spec client on its own. */
export type SpecMessage = { kind: 'offer'; sdp: SpecDescription } | { kind: 'gone' };

/**
 * An all call from one of this instance's sockets (the dispatch console talking in several channels at once):
 * its channels, the one whose take is the call's recording (`lead`, the first on the air), and those it was on
 * the air in. One recording, kept in each of them (issue 37).
 */
export interface AllCall {
  channelIds: number[];
  lead?: number;
  aired: Set<number>;
}

export interface JanusPlaneState {
  readonly options: JanusPlaneOptions;
  readonly log: FastifyBaseLogger;
  readonly takes: Takes;
  readonly store: AssignmentStore;
  readonly keys: JanusKeys;
  readonly backends: JanusBackends;
  readonly rooms: JanusRooms;
  readonly feed: JanusFeed;
  readonly patches: JanusPatches;
  /** This instance's participants, by channel then socket. */
  readonly channels: Map<number, Map<string, Participant>>;
  /** The Janus each channel was last found on here. */
  readonly placed: Map<number, string>;
  /** The all calls of this instance's sockets, by socket. */
  readonly allCalls: Map<string, AllCall>;
  /**
   * The participant's links are gone: it is told, and starts over (recovery.ts). Handed in rather than imported
   * because links and placement, which recovery itself uses, notice the loss.
   */
  readonly startOver: (participant: Participant, reason: string) => void;
}

export function participantOf(state: JanusPlaneState, channelId: number, socketId: string): Participant | undefined {
  return state.channels.get(channelId)?.get(socketId);
}

/** Every participant of this instance, in every channel. */
export function everyone(state: JanusPlaneState): Participant[] {
  return [...state.channels.values()].flatMap((participants) => [...participants.values()]);
}
