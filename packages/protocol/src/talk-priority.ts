/**
 * A user's talk priority (issue 59): 1 (lowest) to 9, what a busy floor compares (a higher one interrupts a
 * lower talker or goes first in the queue, as the channel's `preemption` says; an equal one never interrupts).
 *
 * Stored per user as an administrator set it, or not at all (null): then the role's default applies, and it
 * follows the role when the role changes (a member made dispatcher gets 6, not a member's 3 kept by mistake).
 * A TETRA or MCPTT system gives priority per subscriber with a profile default the same way. The defaults are
 * the roles' `floorPriority` (roles.ts), and an emergency is above all of them (EMERGENCY_FLOOR_PRIORITY there).
 */
import { z } from 'zod';
import { knownRole, ROLE_RULES, ROLES, type Role } from './roles.ts';

export const TALK_PRIORITY_MIN = 1;
export const TALK_PRIORITY_MAX = 9;
/** Every talk priority, lowest first (the user dialog's choices). */
export const TALK_PRIORITIES = Array.from(
  { length: TALK_PRIORITY_MAX - TALK_PRIORITY_MIN + 1 },
  (_, i) => TALK_PRIORITY_MIN + i,
);

/** What a role talks with when its user has no priority of its own (member 3, dispatcher 6, administrator 7). */
export const DEFAULT_TALK_PRIORITY = Object.fromEntries(
  ROLES.map((role) => [role, ROLE_RULES[role].floorPriority]),
) as Record<Role, number>;

/** A talk priority as the calls take it: a whole number from 1 to 9. */
export const TalkPrioritySchema = z
  .number({ error: `must be a whole number from ${TALK_PRIORITY_MIN} to ${TALK_PRIORITY_MAX}` })
  .int(`must be a whole number from ${TALK_PRIORITY_MIN} to ${TALK_PRIORITY_MAX}`)
  .min(TALK_PRIORITY_MIN, `must be from ${TALK_PRIORITY_MIN} to ${TALK_PRIORITY_MAX}`)
  .max(TALK_PRIORITY_MAX, `must be from ${TALK_PRIORITY_MIN} to ${TALK_PRIORITY_MAX}`);
/** On signUpUser and updateUserData: a priority, or null for the role's default (absent: unchanged). */
export const TalkPriorityInput = TalkPrioritySchema.nullable().optional();

/** The role's default talk priority (an unknown role, stored by a newer version: a member's). */
export function defaultTalkPriority(role: string): number {
  return DEFAULT_TALK_PRIORITY[knownRole(role) ?? 'member'];
}

/** The priority a user talks with: its own when set, else its role's. */
export function talkPriorityOf(user: { role: string; talkPriority?: number | null }): number {
  return typeof user.talkPriority === 'number' ? user.talkPriority : defaultTalkPriority(user.role);
}

/**
 * A talk-priority cell of a user import: a whole number from 1 to 9 (blank: `undefined`, the role's default
 * for a new user, unchanged for an update), or `null` when it is not one. "default" (any case) clears it.
 */
export function parseTalkPriorityCell(cell: unknown): number | 'default' | undefined | null {
  const text = cell === null || cell === undefined ? '' : String(cell).trim();
  if (text === '') return undefined;
  if (text.toLowerCase() === 'default') return 'default';
  const value = Number(text);
  return Number.isInteger(value) && value >= TALK_PRIORITY_MIN && value <= TALK_PRIORITY_MAX ? value : null;
}
