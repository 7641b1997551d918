/**
 * Who may talk now, and why not: the one place the floor is decided (issue 14, issue 27).
 *
 * - A press is refused to one who only listens there (its mode, or its membership's rights), unless it is an
 *   emergency: an alert opens its sender's microphone whatever its mode or rights. An SOS raised for a member by
 *   someone else is refused there like a press (issue 69: realtime/concerns/emergency.ts asks with `emergency` false).
 * - A channel without floor control is an open conference: everyone may talk, nothing is asked.
 * - Otherwise one holder per channel. A claim takes a free floor; its own socket's holding is kept (its grant
 *   too, with the higher of the two priorities); it takes the floor from another holder only with a higher
 *   talk priority (issue 59: the user's, 1 to 9, by default its role's: member 3, dispatcher 6, administrator 7;
 *   an emergency above all), and only on a channel whose `preemption` is `interrupt` (an emergency always).
 *   The holders (holders.ts) apply `decideTake` atomically: in memory as it is, with Redis as the same rule in
 *   one Lua script.
 * - A holding may be an offer (issue 59): the floor kept for the first of the channel's queue until its
 *   deadline; its own press confirms it (the offer's grant), another's is refused (or breaks in, as above).
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
  /** Issue 59: an offer to the first of the queue, not yet confirmed by its press; until `deadline` (ms). */
  offer?: boolean;
  deadline?: number;
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

/**
 * The priority a press claims the floor with (issue 59): the talker's talk priority (its own, or its role's
 * default), an emergency's above all. A gateway talks as its `priority`, a role: that role's default.
 */
export function claimPriority(talker: { role: Role; talkPriority?: number }, emergency = false): number {
  if (emergency) return EMERGENCY_FLOOR_PRIORITY;
  return talker.talkPriority ?? floorPriorityOf(talker.role);
}

/** A claim written by an older instance has no priority: its role tells. */
export function priorityOf(claim: Pick<FloorClaim, 'priority' | 'role'>): number {
  return typeof claim.priority === 'number' ? claim.priority : floorPriorityOf(claim.role);
}

/** What a take does: the claim the floor keeps from now on, and the holding it ended, if any. */
export type TakeDecision = { granted: true; keeps: FloorClaim; preempted?: FloorClaim } | { granted: false };

/** How a take is asked: when (ms), and whether a higher priority may break in (the channel's `preemption`). */
export interface TakeRule {
  now: number;
  interrupt: boolean;
}

/**
 * The rule of a take, given who holds the floor now. An offer past its deadline is a free floor (it ends as
 * `preempted`: its socket is told it was not taken); its own socket's press confirms an offer in time.
 */
export function decideTake(holder: FloorClaim | undefined, claim: FloorClaim, rule: TakeRule): TakeDecision {
  if (!holder) return { granted: true, keeps: claim };
  if (holder.offer && (holder.deadline ?? 0) <= rule.now) return { granted: true, keeps: claim, preempted: holder };
  if (holder.socketId === claim.socketId) {
    const { offer: _, deadline: __, ...held } = holder;
    const since = holder.offer ? claim.since : holder.since;
    return { granted: true, keeps: { ...held, since, priority: Math.max(priorityOf(holder), claim.priority) } };
  }
  if (rule.interrupt && claim.priority > priorityOf(holder)) return { granted: true, keeps: claim, preempted: holder };
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
  at: { mayTalk: boolean; hidden?: boolean; memberRightsOnly?: boolean } | undefined,
): BroadcastRefusal | undefined {
  if (!at || at.hidden) return 'not_joined';
  // The socket is in the channel: a member of it (or one who may be in every channel), with the rights read at the join.
  const standing = { member: true, canTalk: at.mayTalk, memberRightsOnly: at.memberRightsOnly === true };
  if (may(user, standing, 'channel.broadcast')) return undefined;
  return may(user, standing, 'channel.talk') ? 'not_allowed' : 'listen_only';
}
