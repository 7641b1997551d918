/**
 * Private calls (issue 27): one user calls another; the callee's pages ring until it accepts or declines (or
 * 30 s pass); both then talk push-to-talk in a hidden channel of two that no list shows. Who may call whom is
 * one rule, `mayCallPrivately`, asked by the server and by the web app's menus.
 */
import { z } from 'zod';
import { call, Empty, Flag, Id, OkSchema, ok } from '../call.ts';
import { type Actor, type ChannelStanding, may } from '../roles.ts';
import { IsoTime } from './shared.ts';

/** How long a call rings before it counts as missed. */
export const PRIVATE_CALL_RING_MS = 30_000;

export const PRIVATE_CALL_STATES = ['ringing', 'active', 'declined', 'missed', 'cancelled', 'ended'] as const;
export type PrivateCallState = (typeof PRIVATE_CALL_STATES)[number];

const Party = z.object({ userId: z.number().nullable(), name: z.string() });

export const PrivateCallSchema = z.object({
  callId: z.number(),
  /** The hidden channel's room key (join_room) and id (its voice history). */
  room: z.string(),
  channelId: z.number(),
  caller: Party,
  callee: Party,
  state: z.enum(PRIVATE_CALL_STATES),
  startedAt: z.string(),
  answeredAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  /**
   * A dispatcher's answer to a member's dispatch request by private call ("Prendre", issue 58): the request, and
   * the member's note ('' when it wrote none), so that the ringing phone says why it rings.
   */
  request: z.object({ requestId: z.number(), note: z.string() }).optional(),
  /**
   * A call to a functional alias (issue 59): the alias, and the holders its ring reaches (`ringing`); the first of
   * them to accept becomes the callee, and the others' rings stop (they get the call, no longer theirs).
   */
  alias: z.object({ aliasId: z.number(), name: z.string(), ringing: z.array(z.number()) }).optional(),
});
export type PrivateCall = z.output<typeof PrivateCallSchema>;

export const CallSettingsSchema = z.object({
  /** Members may call other members of their channels (otherwise only dispatchers and administrators). */
  membersMayCallMembers: z.boolean(),
});
export type CallSettings = z.output<typeof CallSettingsSchema>;

/** Two users' standings in a channel both belong to: the caller's and the callee's. */
export interface SharedChannel {
  caller: ChannelStanding;
  callee: ChannelStanding;
}

/**
 * May `caller` call `callee`? Who holds `channel.call` everywhere (an administrator) calls anyone and may be
 * called by anyone; in a channel they share, one who holds it there (a dispatcher) calls its members and is
 * called by them; members call each other only when an administrator allows it (`membersMayCallMembers`).
 * `shared`: whether they share a channel (memberships that give their roles' rights), or their standings in each
 * channel they share: a membership that gives a member's rights only (an area's, a regroup's: issue 69) gives no
 * dispatcher's call.
 */
export function mayCallPrivately(
  caller: Actor,
  callee: Actor,
  shared: boolean | readonly SharedChannel[],
  settings: CallSettings,
): boolean {
  if (may(caller, null, 'channel.call') || may(callee, null, 'channel.call')) return true;
  const there: ChannelStanding = { member: true };
  const channels = typeof shared === 'boolean' ? (shared ? [{ caller: there, callee: there }] : []) : shared;
  if (channels.length === 0) return false;
  return (
    settings.membersMayCallMembers ||
    channels.some(
      (channel) => may(caller, channel.caller, 'channel.call') || may(callee, channel.callee, 'channel.call'),
    )
  );
}

/**
 * Rings `userId`'s pages; the caller joins `room` once the callee accepts. With `aliasId` instead (issue 59), rings
 * every holder of that functional alias whom the caller may call (the same rule as a call by name) and who is free;
 * the first to accept takes the call. Nobody holds it: 409 `alias_not_held`.
 */
export const StartPrivateCall = call(ok({ res: z.object({ callId: z.number(), room: z.string() }) }))(
  '/user/api/startPrivateCall',
  'signedIn',
  z
    .object({
      userId: Id.optional(),
      aliasId: Id.optional().describe('a functional alias (issue 59): rings its holders'),
    })
    .refine((body) => (body.userId === undefined) !== (body.aliasId === undefined), {
      message: 'give either userId or aliasId',
      path: ['userId'],
    }),
);
/** The callee accepts (both join the call's room) or declines; only while it rings. */
export const AnswerPrivateCall = call(ok({ res: PrivateCallSchema }))(
  '/user/api/answerPrivateCall',
  'signedIn',
  z.object({ callId: Id, accept: Flag }),
);
/** Either party hangs up (the caller's hang-up while it rings cancels it, the callee's declines it). */
export const EndPrivateCall = call(OkSchema)('/user/api/endPrivateCall', 'signedIn', z.object({ callId: Id }));
/** The caller's own calls, newest first (with each call's channel: its voice history). */
export const GetPrivateCalls = call(ok({ res: z.array(PrivateCallSchema) }))(
  '/user/api/getPrivateCalls',
  'signedIn',
  z.object({ limit: z.coerce.number().int().min(1).max(200).default(20) }),
);
export const GetCallSettings = call(ok({ res: CallSettingsSchema }))('/user/api/getCallSettings', 'signedIn', Empty);
export const SetCallSettings = call(ok({ res: CallSettingsSchema }))(
  '/user/api/setCallSettings',
  'settings.manage',
  z.object({ membersMayCallMembers: Flag }),
);

/** How many calls `listPrivateCalls` gives when not told, and at most. */
export const PRIVATE_CALLS_LIST_DEFAULT = 100;
export const PRIVATE_CALLS_LIST_MAX = 500;

/** A private call as compliance sees it: who, when and how long; nothing of what was said. */
export const ListedPrivateCallSchema = z.object({
  callId: z.number(),
  /** The caller, then the callee (`userId` null once that account is deleted; the name stays). */
  parties: z.array(Party),
  startedAt: z.string(),
  answeredAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  /** From its answer to its end (to now while it goes on); 0 when it was never answered. */
  durationMs: z.number(),
  state: z.enum(PRIVATE_CALL_STATES),
});
export type ListedPrivateCall = z.output<typeof ListedPrivateCallSchema>;

/**
 * Compliance (issue 47): the private calls that started in [from, to), newest first, for one who may export a
 * private call's voice (`voice.manage`, and the server runs with PRIVATE_CALLS_AUDITABLE=true; otherwise 403
 * `private_calls_not_auditable`). Each listing is written to the audit log (`privateCall.list`: who, the
 * period). `hasMore`: calls older than the last one given are left out (ask again with `to` set to its start).
 */
export const ListPrivateCalls = call(ok({ res: z.array(ListedPrivateCallSchema), hasMore: z.boolean() }))(
  '/user/api/listPrivateCalls',
  'voice.manage',
  z
    .object({
      from: IsoTime.optional(),
      to: IsoTime.optional(),
      limit: z.number().int().min(1).max(PRIVATE_CALLS_LIST_MAX).default(PRIVATE_CALLS_LIST_DEFAULT),
    })
    .refine((body) => !body.from || !body.to || body.to.getTime() > body.from.getTime(), {
      message: 'must be after from',
      path: ['to'],
    }),
);
