import { z } from 'zod';
import { call, Id, ok } from '../call.ts';

// Area channels (issue 59; see docs/api.md "Trails, geofences and exports")

/** One user in an area channel's zone now. */
export const AreaMemberSchema = z.object({
  userId: z.number(),
  display_name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** When its first position inside was reported (this stay). */
  enteredAt: z.string(),
  /** Its first position outside since, while the exit waits (AREA_EXIT_SECONDS); null: inside. */
  outsideSince: z.string().nullable(),
  /** `area`: the area made it a member (and takes it back); `hand`: an administrator did; null: not a member. */
  membership: z.enum(['area', 'hand']).nullable(),
});
export type AreaMember = z.output<typeof AreaMemberSchema>;

/** Who is in an area channel's zone now, by name (empty for a channel that follows no zone). */
export const GetAreaMembers = call(ok({ res: z.array(AreaMemberSchema) }))(
  '/user/api/getAreaMembers',
  'channel.monitor',
  z.object({ channelId: Id }),
);
