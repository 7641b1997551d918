/**
 * The user that sign-in returns and the browser keeps: apart from entities.ts, so that the sign-in page's first
 * load (api/sign-in.ts, api/sso.ts) carries this schema alone, not every entity's.
 */
import { z } from 'zod';
import { StoredRoleSchema } from './roles.ts';

export const SignedInUserSchema = z.object({
  id: z.number(),
  identifier: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  display_name: z.string(),
  pseudo: z.string(),
  role: StoredRoleSchema,
  mapRight: z.boolean(),
  authToken: z.string(),
});
export type SignedInUser = z.output<typeof SignedInUserSchema>;
