/**
 * Session check on load (spec section 4): the stored token is sent to isValidToken. Invalid -> both storages
 * cleared and /signin (api() does it on the 401). No token -> both storages cleared. An unreachable server
 * keeps the session: the next call will tell.
 */
import { IsValidToken } from '@talkgroup/protocol';
import { api } from '../api/client.ts';
import { clearStorages, getSession, updateStoredUser } from '../api/session.ts';

export function checkSessionOnLoad(onInvalid: () => void): void {
  const session = getSession();
  if (!session) {
    clearStorages();
    return;
  }
  api(IsValidToken, { token: session.token }).then(
    (response) => {
      if (response.success && response.user) {
        updateStoredUser(response.user);
      } else if (!response.success) {
        clearStorages();
        onInvalid();
      }
    },
    () => {},
  );
}
