/** The administrator's password gate (spec section 4): verifyPassword answers `result: true` or `false`. */
import { VerifyPassword } from '@talkgroup/protocol';
import { useApiMutation } from '../../../api/queries.ts';

export function useVerifyPassword() {
  return useApiMutation(VerifyPassword);
}
