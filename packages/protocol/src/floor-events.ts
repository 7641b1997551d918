/**
 * The floor's socket payloads (issue 14, the all call of issue 27, the queue and pre-emption of issue 59),
 * beside events.ts, which types them on the socket.
 */
import { z } from 'zod';

/** A socket may be in this many channels at once (a dispatcher's desk). */
export const MAX_PARTICIPATIONS = 32;

/** The floor of a channel (who may talk), asked for and given back by the room it is in. */
export const FloorRequest = z.object({ room: z.string().max(200).optional() });

/**
 * Why the server took the floor back from its holder, or (`not_taken`, issue 59) from a queued socket that was
 * offered it and did not confirm within `acceptMs`.
 */
export type FloorRevokeReason = 'preempted' | 'timeout' | 'left' | 'revoked' | 'not_taken';

/** Leaves the channel's floor queue (issue 59): the page's Cancel. */
export const FloorCancel = z.object({ room: z.string().max(200).optional() });
/** A dispatcher or administrator takes someone out of a channel's floor queue (issue 59); a member's is ignored. */
export const FloorQueueRemove = z.object({
  room: z.string().min(1).max(200),
  userId: z.union([z.number().int().positive(), z.string().regex(/^\d+$/).transform(Number)]),
});

/** One request waiting in a channel's floor queue (issue 59), first to be offered the floor first. */
export interface FloorQueueEntry {
  userId: number;
  name: string;
  /** The talk priority of the press (1..9; an emergency above). */
  priority: number;
  /** When it joined the queue (ISO time). */
  since: string;
}

/** All call (the dispatch console): the channels (rooms) to talk in at once, each one of the socket's. */
export const BroadcastRequest = z.object({
  rooms: z
    .array(z.string().min(1).max(200))
    .min(1)
    .max(MAX_PARTICIPATIONS)
    .transform((rooms) => [...new Set(rooms)]),
});

/**
 * Why an all call did not take a channel's floor: `busy` (a holder of equal or higher priority, named), or
 * `listen_only` (the socket listens there, or may not talk), `not_joined` (the socket is not in that channel),
 * `not_allowed` (its role may not talk on several channels there).
 */
export type BroadcastRefusal = 'busy' | 'listen_only' | 'not_joined' | 'not_allowed';

/**
 * The answer to broadcast_request: the floor is taken channel by channel; these rooms are the caller's now,
 * under one grant (`grantId`, when any was granted) that the call's recording names when it is uploaded.
 */
export interface BroadcastAnswer {
  granted: string[];
  grantId?: string;
  refused: Array<{ room: string; reason: BroadcastRefusal; holder?: { userId: number; name: string } }>;
}

/**
 * A granted press names its grant (`grantId`: the upload of what was said names it too); a refused one, who
 * holds the floor, or that this socket may only listen there (mode or rights).
 */
export type FloorAnswer =
  | { granted: true; grantId: string }
  | { granted: false; holder: { userId: number; name: string } }
  /** Issue 59: the press waits in the channel's queue, at `position` (from 1), behind the holder named. */
  | { granted: false; queued: true; position: number; holder: { userId: number; name: string } }
  | { granted: false; reason: 'listen_only' };
