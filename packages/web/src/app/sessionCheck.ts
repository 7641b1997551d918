/**
 * Session check on load (spec section 4): the stored token is sent to isValidToken. Invalid -> both storages
 * cleared and /signin (api() does it on the 401). No token -> both storages cleared. An unreachable server
 * keeps the session: the next call will tell.
 */
import { IsValidToken } from '@talkgroup/protocol';
import { api } from '../api/client.ts';
import { clearStorages, getSession, markSecondFactorSetup, updateStoredUser } from '../api/session.ts';

export function checkSessionOnLoad(onInvalid: () => void): void {
  if (!getSession()) {
    clearStorages();
    return;
  }
  refreshStoredUser(onInvalid);
}

/**
 * Reads the signed-in user again (its names, its role: what the guards and menus let it open) and keeps it; an
 * invalid token clears both storages. Also after the server said the user's rights changed (RightsFollower).
 */
export function refreshStoredUser(onInvalid: () => void = () => {}): void {
  const session = getSession();
  if (!session) return;
  api(IsValidToken, { token: session.token }).then(
    (response) => {
      if (response.success && response.user) {
        updateStoredUser(response.user);
        markSecondFactorSetup(response.secondFactorSetupRequired === true);
      } else if (!response.success) {
        clearStorages();
        onInvalid();
      }
    },
    () => {},
  );
}
