import { z } from 'zod';
import { call, Empty, Id, ok } from '../call.ts';
import { ACTIVITY_TYPES, ActivitySchema, StatisticsSchema } from '../entities.ts';
import { ACTIVITY_TIME_FRAMES } from '../rules.ts';

// Activities
export const GetLastActivities = call(ok({ res: z.array(ActivitySchema) }))(
  '/user/api/getLastActivities/',
  'channel.activities',
  z.object({ limit: z.number().int().min(1).max(100).optional() }).passthrough(),
);
export const GetAllActivities = call(
  ok({ res: z.object({ activities: z.array(ActivitySchema), totalRecords: z.number() }) }),
)(
  '/user/api/getAllActivities/',
  'channel.activities',
  z.object({
    start: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(1000).default(21),
    /** New, optional filters (issue 17): an entry of this member, of this channel, of this type. */
    userId: Id.optional(),
    channelId: Id.optional(),
    type: z.enum(ACTIVITY_TYPES).optional(),
    /** From this moment (inclusive) to that one (exclusive), ISO 8601. */
    from: z.iso.datetime({ offset: true }).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
  }),
);
export const DeleteOldActivities = call(ok({ deleted: z.number() }))(
  '/user/api/deleteOldActivities',
  'activities.delete',
  z.object({ timeFrame: z.enum(ACTIVITY_TIME_FRAMES, { error: 'must be one of 1m, 2w, 1w' }) }),
);

export const GetStatistics = call(ok({ res: StatisticsSchema }))('/user/api/getStatistics', 'statistics.read', Empty);
