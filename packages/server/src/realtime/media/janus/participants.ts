/**
 * A participant of a channel through Janus, as this instance holds it: its links with Janus (a publisher in the
 * VideoRoom, a watcher of the mountpoint, a place in the AudioBridge), whether the floor lets it be heard, and
 * the queue that runs its negotiations and floor changes one after the other.
 */

import type { JanusBackend } from '../../../janus/backends.ts';
import type { JanusHandle } from '../../../janus/connection.ts';
import type { MediaParticipant } from '../plane.ts';
import type { Take } from './takes.ts';

export type LinkKind = 'send' | 'watch' | 'bridge';

/** One of the participant's connections with Janus. */
export interface Link {
  backend: JanusBackend;
  handle: JanusHandle;
  kind: LinkKind;
  off: () => void;
  /** `send`: its publisher id in the VideoRoom, and the mid and m-line index of its audio. */
  publisherId?: number;
  mid?: string;
  mindex?: number;
}

export interface Participant extends MediaParticipant {
  channelId: number;
  heard: boolean;
  send?: Link;
  watch?: Link;
  bridge?: Link;
  /** It is on the air (forwarded to the channel) through its uplink. */
  onAir?: boolean;
  take?: Take;
  /** A spec client: how its descriptions came (a string, or `{ type, sdp }`), answered alike. */
  specShape?: 'string' | 'object';
  /** Its negotiations and floor changes, one after the other. */
  queue: Promise<unknown>;
  /** A spec client's connection is being made again by the server (after a reset). */
  reoffer?: NodeJS.Timeout;
}

export const linksOf = (participant: Participant): Link[] =>
  [participant.send, participant.watch, participant.bridge].filter((link): link is Link => link !== undefined);

/** The link that carries the participant's voice up: its publisher, or its place in the mixer. */
export const uplinkOf = (participant: Participant): Link | undefined =>
  participant.send?.publisherId ? participant.send : participant.bridge;

/** Runs `work` after whatever the participant has queued (a failure before does not stop it). */
export function serial<T>(participant: Participant, work: () => Promise<T>): Promise<T> {
  const run = participant.queue.catch(() => {}).then(work);
  participant.queue = run;
  return run;
}
