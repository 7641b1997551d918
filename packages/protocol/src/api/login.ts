/**
 * Signing in with a password, checking a token, and whether /signup is open: apart from accounts.ts, so that the
 * sign-in page's first load carries the signed-in user's schema alone, not the users' (entities.ts).
 */
import { z } from 'zod';
import { call, Empty, ok, requiredText } from '../call.ts';
import { SignedInUserSchema } from '../signed-in-user.ts';

/**
 * For an account with a second factor, `otp` (a current 6-digit code or a recovery code) is needed too: without
 * it the answer is 401 `second_factor_required`, with a wrong one 401 `second_factor_wrong` (issue 38). A user
 * whose role must have a second factor and who has none gets `secondFactorSetupRequired: true`: that session
 * reaches only the setup until it is done.
 */
export const Login = call(ok({ user: SignedInUserSchema, secondFactorSetupRequired: z.boolean().optional() }))(
  '/user/api/login',
  'public',
  z.object({
    user_email: requiredText(254),
    user_password: z.string().min(1, 'must not be empty').max(1024),
    otp: z.string().trim().max(40).optional(),
  }),
);
export const IsValidToken = call(
  z.object({
    success: z.boolean(),
    user: SignedInUserSchema.omit({ authToken: true }).optional(),
    /** New (issue 38): this session must set up a second factor before it reaches anything else. */
    secondFactorSetupRequired: z.boolean().optional(),
  }),
)('/user/api/isValidToken', 'public', z.object({ token: z.string().max(512).optional() }));
/** New (not in the spec): whether /signup can create an account now, so that sign-in offers it only then. */
export const GetSignUpState = call(z.object({ success: z.boolean(), open: z.boolean() }))(
  '/user/api/getSignUpState',
  'public',
  Empty,
);
