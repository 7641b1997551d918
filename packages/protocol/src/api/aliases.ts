/**
 * Functional aliases (issue 59 item 5; MCPTT's functional alias, TS 22.179 §5.9a): a role such as "Chef de quart"
 * that people take and give back. An administrator defines them (`settings.manage`) and which roles may take each
 * (`takeRoles`, issue 69); a user of those roles takes or gives back one for itself; an administrator assigns
 * anyone, a dispatcher the members of the channels it dispatches. `startPrivateCall { aliasId }` rings whoever
 * holds it; the holder's alias shows beside its name. Taking and giving back are audited.
 */
import { z } from 'zod';
import { call, Empty, Flag, Id, OkSchema, ok, requiredName } from '../call.ts';
import { ROLES, type Role, RoleSchema } from '../roles.ts';

export const ALIAS_NAME_MAX = 60;
/** How many people may hold one alias at once, at most. */
export const ALIAS_HOLDERS_MAX = 50;

const MaxHolders = z.number().int().min(1, 'must be at least 1').max(ALIAS_HOLDERS_MAX, `at most ${ALIAS_HOLDERS_MAX}`);
/** Who takes a new alias by itself, unless told: the desk (issue 69). */
export const ALIAS_TAKE_ROLES_DEFAULT: Role[] = ['dispatcher', 'admin'];
/** The roles that may take an alias by themselves: role values of signUpUser, each once (none: assigned only). */
const TakeRoles = z
  .array(RoleSchema)
  .max(ROLES.length)
  .refine((roles) => new Set(roles).size === roles.length, 'must name each role once');

export const AliasHolderSchema = z.object({ userId: z.number(), name: z.string(), since: z.string() });
export type AliasHolder = z.output<typeof AliasHolderSchema>;

export const AliasSchema = z.object({
  id: z.number(),
  name: z.string(),
  maxHolders: z.number(),
  /** The roles that may take it by themselves (takeAlias); assignAlias by someone else is not bound by them. */
  takeRoles: z.array(z.string()),
  /** Who holds it now, the longest first. */
  holders: z.array(AliasHolderSchema),
});
export type Alias = z.output<typeof AliasSchema>;

/** Every alias with its holders, by name. */
export const GetAliases = call(ok({ res: z.array(AliasSchema) }))('/user/api/getAliases', 'signedIn', Empty);

/** A new alias (audited); a name already used (in any case) is refused (400). */
export const CreateAlias = call(ok({ res: AliasSchema }))(
  '/user/api/createAlias',
  'settings.manage',
  z.object({
    name: requiredName(ALIAS_NAME_MAX),
    maxHolders: MaxHolders.default(1),
    takeRoles: TakeRoles.default(ALIAS_TAKE_ROLES_DEFAULT),
  }),
);

/**
 * Renames it, changes how many may hold it or which roles may take it (audited); not below the number holding it
 * now (409). Those who hold it keep it when their role is taken out of `takeRoles`. A field it does not know: 400.
 */
export const UpdateAlias = call(ok({ res: AliasSchema }))(
  '/user/api/updateAlias',
  'settings.manage',
  z
    .object({
      aliasId: Id,
      name: requiredName(ALIAS_NAME_MAX).optional(),
      maxHolders: MaxHolders.optional(),
      takeRoles: TakeRoles.optional(),
    })
    .strict(),
);

/** Deletes it (audited): its holders hold it no more. */
export const DeleteAlias = call(OkSchema)('/user/api/deleteAlias', 'settings.manage', z.object({ aliasId: Id }));

/**
 * The caller takes it (audited; already held by it: nothing changes; held by as many as it allows: 409); a caller
 * whose role is not in its `takeRoles`: 403 `alias_role_not_allowed`.
 */
export const TakeAlias = call(ok({ res: AliasSchema }))('/user/api/takeAlias', 'signedIn', z.object({ aliasId: Id }));

/** The caller gives it back (audited; not held by it: nothing changes). */
export const ReleaseAlias = call(ok({ res: AliasSchema }))(
  '/user/api/releaseAlias',
  'signedIn',
  z.object({ aliasId: Id }),
);

/**
 * Gives it to a user (audited), or takes it back from them with `holds: false`: an administrator for anyone, a
 * dispatcher for the members of a channel it dispatches (403 otherwise). Full: 409. Giving it to oneself is a
 * take: bound by `takeRoles` (403 `alias_role_not_allowed`).
 */
export const AssignAlias = call(ok({ res: AliasSchema }))(
  '/user/api/assignAlias',
  'channel.dispatch',
  z.object({ aliasId: Id, userId: Id, holds: Flag.default(true) }),
);
