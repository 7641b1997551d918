/**
 * The dispatch console (issue 27): the channels a desk monitors, with their volumes (saved per user, so they
 * follow it to another desk), and patches, channels whose voice is joined through the media server.
 */
import { z } from 'zod';
import { call, Empty, Flag, Id, OkSchema, ok } from '../call.ts';
import { MAX_PARTICIPATIONS } from '../events.ts';

/**
 * How many channels a monitor list holds: each tile is a channel of the page's socket (MAX_PARTICIPATIONS), and
 * a private call needs one more.
 */
export const MONITOR_LIST_MAX = MAX_PARTICIPATIONS - 2;
/** The level of the tiles that are not selected, until the user sets one (0 to 100). */
export const UNSELECTED_VOLUME_DEFAULT = 40;
/** How many channels one patch joins. */
export const PATCH_MAX_CHANNELS = 8;

const Volume = z.coerce.number().int('must be a whole number').min(0).max(100);

export const MonitoredChannelSchema = z.object({
  channelId: z.number(),
  /** 0 to 100: this tile's own level (the selected tile plays at it, the others at it times the unselected level). */
  volume: z.number(),
  muted: z.boolean(),
});
export type MonitoredChannel = z.output<typeof MonitoredChannelSchema>;

const MonitorListSchema = ok({ res: z.array(MonitoredChannelSchema), unselectedVolume: z.number() });

/**
 * The caller's monitor list in its order (the tiles, keys 1 to 9): only the channels it may still monitor.
 * `userId`: another user's, for one who manages users.
 */
export const GetMonitorList = call(MonitorListSchema)(
  '/user/api/getMonitorList',
  'channel.monitor',
  z.object({ userId: Id.optional() }),
);
/** Replaces the caller's monitor list (each channel one it may monitor) and its unselected level. */
export const SetMonitorList = call(MonitorListSchema)(
  '/user/api/setMonitorList',
  'channel.monitor',
  z.object({
    channels: z
      .array(z.object({ channelId: Id, volume: Volume.default(100), muted: Flag.default(false) }))
      .max(MONITOR_LIST_MAX, `at most ${MONITOR_LIST_MAX} channels`)
      .refine(
        (list) => new Set(list.map((entry) => entry.channelId)).size === list.length,
        'a channel is listed twice',
      ),
    unselectedVolume: Volume,
  }),
);

export const PatchSchema = z.object({
  patchId: z.number(),
  channels: z.array(z.object({ id: z.number(), name: z.string() })),
  createdAt: z.string(),
  /** Who made it; id null once that account is deleted. */
  createdBy: z.object({ id: z.number().nullable(), display_name: z.string() }),
});
export type Patch = z.output<typeof PatchSchema>;

/**
 * Joins the voice of two or more channels until unpatched: what is said in one is heard in the others. Only
 * through the media server (409 `patch_unavailable` otherwise); a channel is in one patch at a time.
 */
export const PatchChannels = call(ok({ res: z.object({ patchId: z.number() }) }))(
  '/user/api/patchChannels',
  'channel.patch',
  z.object({
    channelIds: z
      .array(Id)
      .min(2, 'name at least two channels')
      .max(PATCH_MAX_CHANNELS, `at most ${PATCH_MAX_CHANNELS} channels`)
      .refine((ids) => new Set(ids).size === ids.length, 'a channel is named twice'),
  }),
);
export const UnpatchChannels = call(OkSchema)('/user/api/unpatchChannels', 'channel.patch', z.object({ patchId: Id }));
/** The patches that join one of the caller's channels (every patch for an administrator), newest first. */
export const GetPatches = call(ok({ res: z.array(PatchSchema) }))('/user/api/getPatches', 'channel.patch', Empty);
