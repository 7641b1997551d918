/**
 * Dynamic regrouping and the remote change of a member's selected channel (issue 59, items 3 and 4;
 * docs/dispatchers/dispatch-console.md "Regroup"): a dispatcher gathers members of its channels into a temporary
 * channel for an incident, their /talk switches to it, and its end (or its minutes running out) brings each back
 * to the channel it had selected before. A dispatcher may also switch one member's /talk to another channel.
 */
import { z } from 'zod';
import { call, Id, ok, requiredName } from '../call.ts';

/** How long a regroup lasts when `minutes` is not given, and the longest it may last (a week). */
export const REGROUP_MINUTES_DEFAULT = 120;
export const REGROUP_MINUTES_MAX = 7 * 24 * 60;
/** The most users and channels one regroup may name. */
export const REGROUP_USERS_MAX = 1000;
export const REGROUP_CHANNELS_MAX = 100;
/** The most regroups one user may have open at once (issue 69): past it createRegroup answers 429. */
export const REGROUP_OPEN_MAX = 20;

/** Why a member's /talk moved to another channel (`selected_channel_changed`). */
export const SELECTION_REASONS = ['regroup', 'regroup_end', 'dispatcher'] as const;
export type SelectionReason = (typeof SELECTION_REASONS)[number];

const Person = z.object({ userId: z.number(), name: z.string() });

/** An open regroup (getRegroups, and the answers of createRegroup and endRegroup). */
export const RegroupSchema = z.object({
  regroupId: z.number(),
  name: z.string(),
  /** Its temporary channel (`temporary: true` in getAllChannels and getMyChannels while it is open). */
  channelId: z.number(),
  createdBy: Person,
  createdAt: z.string(),
  /** When its minutes run out: it ends by itself then. */
  expiresAt: z.string(),
  /** Set once it ended: when, and whether by endRegroup (`ended`) or by its minutes (`expired`). */
  endedAt: z.string().optional(),
  endReason: z.enum(['ended', 'expired']).optional(),
  /** Everyone in its channel: the chosen users, the members of the chosen channels and its creator. */
  members: z.array(Person),
});
export type Regroup = z.output<typeof RegroupSchema>;

/**
 * A dispatcher (for members of the channels it dispatches) or an administrator makes a regroup: a temporary
 * channel holding `userIds`, the members of `channelIds` and the caller, nobody else. Each regrouped member's
 * sockets get `selected_channel_changed` (`regroup`); its other channels stay in its scan. A user outside the
 * dispatcher's channels: 403 `regroup_user_not_allowed`; the name of an existing channel: 409; a caller who has
 * REGROUP_OPEN_MAX (20) regroups open already: 429 `regroup_limit`. Only the creator's membership of the regroup's
 * channel gives its role's rights: the others regrouped, dispatchers included, have a member's there.
 */
export const CreateRegroup = call(ok({ regroupId: z.number(), channelId: z.number(), res: RegroupSchema }))(
  '/user/api/createRegroup',
  'channel.dispatch',
  z
    .object({
      name: requiredName(200),
      userIds: z.array(Id).max(REGROUP_USERS_MAX),
      channelIds: z.array(Id).max(REGROUP_CHANNELS_MAX).optional(),
      minutes: z
        .number({ error: 'must be a number of minutes' })
        .positive('must be more than 0')
        .max(REGROUP_MINUTES_MAX, `must be at most ${REGROUP_MINUTES_MAX} (a week)`)
        .default(REGROUP_MINUTES_DEFAULT),
    })
    .refine((body) => body.userIds.length > 0 || (body.channelIds?.length ?? 0) > 0, {
      message: 'must name at least one user (or a channel in channelIds)',
      path: ['userIds'],
    }),
);
/**
 * Ends a regroup (an administrator, or its creator: those who dispatch its channel): each member whose /talk is still on it goes
 * back to the channel it had selected before (`selected_channel_changed`, `regroup_end`); the channel leaves every
 * list, its voice history, activities and reports stay.
 */
export const EndRegroup = call(ok({ res: RegroupSchema }))(
  '/user/api/endRegroup',
  'channel.dispatch',
  z.object({ regroupId: Id }),
);
/** The regroups open now: an administrator's all, a dispatcher's those of its channels. */
export const GetRegroups = call(ok({ res: z.array(RegroupSchema) }))(
  '/user/api/getRegroups',
  'channel.dispatch',
  z.object({}).passthrough(),
);
/**
 * Switches a member's /talk to one of its channels (`selected_channel_changed`, `dispatcher`, naming the caller):
 * an administrator, or a dispatcher of that channel when the user is one of its members, and only down the ranks
 * (`mayActOn`: a user whose role is equal to or above the caller's is refused with 403 `select_rank_not_allowed`;
 * an administrator switches anyone but himself). Anyone else: 403, and nothing is sent.
 */
export const SelectChannelFor = call(ok({ res: z.object({ userId: z.number(), channelId: z.number() }) }))(
  '/user/api/selectChannelFor',
  'channel.dispatch',
  z.object({ userId: Id, channelId: Id }),
);

/** The channel a user's /talk is on, as the user or someone for it last selected it. */
export const SelectionSchema = z.object({
  channelId: z.number(),
  channelName: z.string(),
  /** `self`: the user chose it; otherwise why it was chosen for it. */
  reason: z.enum(['self', ...SELECTION_REASONS]),
  /** Who chose it for the user (null for `self`). */
  by: Person.nullable(),
  selectedAt: z.string(),
});
export type Selection = z.output<typeof SelectionSchema>;

/** New: /talk says which channel the member opened (the channel a regroup's end brings it back to). */
export const SelectMyChannel = call(ok({ res: SelectionSchema }))(
  '/user/api/selectMyChannel',
  'channel.read',
  z.object({ channelId: Id }),
);
/** New: the caller's selected channel (null: none yet); /talk opens it when someone else chose it. */
export const GetMySelectedChannel = call(ok({ res: SelectionSchema.nullable() }))(
  '/user/api/getMySelectedChannel',
  'signedIn',
  z.object({}).passthrough(),
);

/** `selected_channel_changed`: to the member's sockets, its /talk switches to `channelId` (null: to its list). */
export interface SelectedChannelChanged {
  channelId: number | null;
  /** The channel's name, for the notice. */
  channelName: string | null;
  reason: SelectionReason;
  by: { userId: number; name: string };
  /** The regroup, for `regroup` and `regroup_end`. */
  regroupId?: number;
}

/**
 * `regroup_ended` (issue 70): to each member of a regroup that ended (or ran out), before its /talk is switched
 * back: the regroup's channel is gone (retired: listed nowhere, its history kept), which is no change of the
 * member's rights. `backTo`: the channel its /talk goes back to; null when it was on another channel already (or
 * has none).
 */
export interface RegroupEnded {
  regroupId: number;
  name: string;
  /** The regroup's channel, gone now: a page stops asking for it. */
  channelId: number;
  reason: 'ended' | 'expired';
  backTo: { channelId: number; channelName: string } | null;
}
