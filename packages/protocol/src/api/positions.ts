import { z } from 'zod';
import { call, Id, ok } from '../call.ts';
import { UserPositionSchema } from '../entities.ts';
import { IsoTime } from './shared.ts';

// Trails (issue 28; see docs/api.md "Trails, geofences and exports")

/**
 * A user's kept positions in [from, to), oldest first: at most POSITION_HISTORY_MAX_POINTS, the earliest ones;
 * `truncated` says more follow (ask again from the last point's time). Without `from`, from the oldest kept;
 * without `to`, up to now.
 */
export const GetPositionHistory = call(ok({ res: z.array(UserPositionSchema), truncated: z.boolean() }))(
  '/user/api/getPositionHistory',
  'trails',
  z
    .object({ userId: Id, from: IsoTime.optional(), to: IsoTime.optional() })
    .refine((body) => !body.from || !body.to || body.to.getTime() > body.from.getTime(), {
      message: 'must be after from',
      path: ['to'],
    }),
);

export const POSITION_EXPORT_FORMATS = ['gpx', 'geojson'] as const;
export type PositionExportFormat = (typeof POSITION_EXPORT_FORMATS)[number];
/** The most users one export may name (a channel's members are not counted against it). */
export const POSITION_EXPORT_MAX_USERS = 1000;

/**
 * POST, JSON body; answers a file, streamed: GPX 1.1 (application/gpx+xml) or GeoJSON (application/geo+json),
 * one track per user. Not a JSON call: documented apart, like the voice export.
 */
export const POSITION_EXPORT_PATH = '/user/api/exportPositions';
export const PositionExport = {
  path: POSITION_EXPORT_PATH,
  access: 'trails' as const,
  body: z
    .object({
      /** These users (each one the caller may follow); with `channelId`, those of them in that channel. */
      userIds: z.array(Id).min(1).max(POSITION_EXPORT_MAX_USERS).optional(),
      /** The channel's members (the caller needs channel.trails there). */
      channelId: Id.optional(),
      from: IsoTime,
      to: IsoTime,
      format: z.enum(POSITION_EXPORT_FORMATS),
    })
    .refine((body) => body.userIds !== undefined || body.channelId !== undefined, {
      message: 'name the users (userIds) or a channel (channelId)',
      path: ['userIds'],
    })
    .refine((body) => body.to.getTime() > body.from.getTime(), { message: 'must be after from', path: ['to'] }),
};
