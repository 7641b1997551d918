/**
 * Who may talk now, and why not: the one place the floor is decided (issue 14, issue 27).
 *
 * - A press is refused to one who only listens there (its mode, or its membership's rights), unless it is an
 *   emergency: an alert opens its sender's microphone whatever its mode or rights.
 * - A channel without floor control is an open conference: everyone may talk, nothing is asked.
 * - Otherwise one holder per channel. A claim takes a free floor; its own socket's holding is kept (its grant
 *   too, with the higher of the two priorities); it takes the floor from another holder only with a higher
 *   priority (the role's, protocol's roles.ts: a dispatcher breaks in on a member, an administrator on both,
 *   an emergency on anyone). The holders (holders.ts) apply `decideTake` atomically: in memory as it is, with
 *   Redis as the same rule in one Lua script.
 * - An all call asks the same floor channel by channel, once its role and rights there allow one.
 *
 * The media planes never decide: they let heard whom a grant names and silence whom a release names.
 */
import {
  type Actor,
  type BroadcastRefusal,
  EMERGENCY_FLOOR_PRIORITY,
  floorPriorityOf,
  may,
  mayAnywhere,
  type ParticipationMode,
  type Role,
} from '@talkgroup/protocol';

/** One holding of a channel's floor, as the holders keep it. */
export interface FloorClaim {
  socketId: string;
  userId: number;
  name: string;
  role: Role;
  /** ISO time of the grant. */
  since: string;
  /** Who may take the floor from whom: a higher priority preempts a lower one. */
  priority: number;
  /**
   * The grant's id: the floor answer carries it, the talk burst keeps it, a browser's upload of what was said
   * names it. A claim written by an older instance has none.
   */
  grantId?: string;
}

/** Where a press is made: how the talker is in the channel, and whether its rights let it talk there. */
export interface PressPlace {
  mode: ParticipationMode;
  mayTalk: boolean;
}

/** Why a press is refused before the floor is asked, or undefined when it may ask. */
export function pressRefusal(at: PressPlace, emergency = false): 'listen_only' | undefined {
  if (emergency) return undefined;
  return at.mode === 'listen' || !at.mayTalk ? 'listen_only' : undefined;
}

/** Whether a press asks the channel's floor (one talker at a time) or is granted at once (an open conference). */
export function asksFloor(channel: { floorControl: boolean }): boolean {
  return channel.floorControl;
}

/** The priority a press claims the floor with. */
export function claimPriority(role: Role, emergency = false): number {
  return emergency ? EMERGENCY_FLOOR_PRIORITY : floorPriorityOf(role);
}

/** A claim written by an older instance has no priority: its role tells. */
export function priorityOf(claim: Pick<FloorClaim, 'priority' | 'role'>): number {
  return typeof claim.priority === 'number' ? claim.priority : floorPriorityOf(claim.role);
}

/** What a take does: the claim the floor keeps from now on, and the holding it ended, if any. */
export type TakeDecision = { granted: true; keeps: FloorClaim; preempted?: FloorClaim } | { granted: false };

/** The rule of a take, given who holds the floor now. */
export function decideTake(holder: FloorClaim | undefined, claim: FloorClaim): TakeDecision {
  if (!holder) return { granted: true, keeps: claim };
  if (holder.socketId === claim.socketId)
    return { granted: true, keeps: { ...holder, priority: Math.max(priorityOf(holder), claim.priority) } };
  if (claim.priority > priorityOf(holder)) return { granted: true, keeps: claim, preempted: holder };
  return { granted: false };
}

/** Whether this user's role may make an all call at all (in some channel). */
export function mayCallAll(user: Actor): boolean {
  return mayAnywhere(user, 'channel.broadcast');
}

/**
 * Why an all call does not ask a channel's floor, or undefined when it may: `not_joined` (the socket is not
 * there, or it is a private call's), `not_allowed` (its role may not talk on several channels there),
 * `listen_only` (it may not talk there at all).
 */
export function broadcastRefusal(
  user: Actor,
  at: { mayTalk: boolean; hidden?: boolean } | undefined,
): BroadcastRefusal | undefined {
  if (!at || at.hidden) return 'not_joined';
  // The socket is in the channel: a member of it (or one who may be in every channel), with the rights read at the join.
  const standing = { member: true, canTalk: at.mayTalk };
  if (may(user, standing, 'channel.broadcast')) return undefined;
  return may(user, standing, 'channel.talk') ? 'not_allowed' : 'listen_only';
}
