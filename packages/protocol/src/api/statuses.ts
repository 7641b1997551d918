/**
 * Members' statuses (issue 49): a short list an administrator keeps (Disponible, En route, Sur place, En pause:
 * a label in each language and a colour); a member sets its own, a dispatcher sets one of its channels' members'.
 * Shown live with its age on the dispatch tiles, the users list, a channel's participants and the map.
 */
import { z } from 'zod';
import { call, Empty, Id, ok, requiredText } from '../call.ts';

/** How many statuses the list holds at most. */
export const STATUSES_MAX = 20;
export const STATUS_LABEL_MAX = 40;
/** A colour as #rrggbb. */
export const StatusColor = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #2e7d32');

export const StatusLabelSchema = z.object({ fr: z.string(), en: z.string(), de: z.string() });
export type StatusLabel = z.output<typeof StatusLabelSchema>;

export const StatusSchema = z.object({ id: z.number(), label: StatusLabelSchema, color: z.string() });
export type Status = z.output<typeof StatusSchema>;

/** A user's status now: `statusId` null when it has none; `since`, when it was set (its age). */
export const MemberStatusSchema = z.object({
  userId: z.number(),
  statusId: z.number().nullable(),
  since: z.string().nullable(),
  /** Who set it, when it was not the member itself (a dispatcher). */
  setBy: z.object({ userId: z.number().nullable(), name: z.string() }).nullable(),
});
export type MemberStatus = z.output<typeof MemberStatusSchema>;

/** The organisation's statuses, in their order. */
export const ListStatuses = call(ok({ res: z.array(StatusSchema) }))('/user/api/listStatuses', 'signedIn', Empty);
/**
 * Replaces the list (audited): an entry with `id` keeps that status (its members keep it), one without is new; a
 * status left out is deleted and its members have none. Answers the list with ids.
 */
export const SetStatuses = call(ok({ res: z.array(StatusSchema) }))(
  '/user/api/setStatuses',
  'settings.manage',
  z.object({
    statuses: z
      .array(
        z.object({
          id: Id.optional(),
          label: z.object({
            fr: requiredText(STATUS_LABEL_MAX),
            en: requiredText(STATUS_LABEL_MAX),
            de: requiredText(STATUS_LABEL_MAX),
          }),
          color: StatusColor,
        }),
      )
      .max(STATUSES_MAX, `at most ${STATUSES_MAX} statuses`)
      .refine((list) => {
        const ids = list.flatMap((entry) => (entry.id !== undefined ? [entry.id] : []));
        return new Set(ids).size === ids.length;
      }, 'a status is listed twice'),
  }),
);
/** A member sets its own status (null: none). */
export const SetMyStatus = call(ok({ res: MemberStatusSchema }))(
  '/user/api/setMyStatus',
  'signedIn',
  z.object({ statusId: Id.nullable() }),
);
/** A dispatcher sets the status of a member of a channel it dispatches; an administrator, anyone's. */
export const SetUserStatus = call(ok({ res: MemberStatusSchema }))(
  '/user/api/setUserStatus',
  'channel.dispatch',
  z.object({ userId: Id, statusId: Id.nullable() }),
);
/**
 * The statuses of the users the caller may see (those who share a channel with it; everyone for an
 * administrator), or of these users among them. Only users with a status are listed.
 */
export const GetMemberStatuses = call(ok({ res: z.array(MemberStatusSchema) }))(
  '/user/api/getMemberStatuses',
  'signedIn',
  z.object({ userIds: z.array(Id).max(10_000).optional() }),
);
