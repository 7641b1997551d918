/**
 * Time-limited TURN credentials, the way coturn's REST API checks them (`use-auth-secret` with
 * `static-auth-secret`): the username is `<expiry unix seconds>:<userId>`, the credential the base64 HMAC-SHA1
 * of the username under the shared secret. No call to coturn: it recomputes the same HMAC and refuses an
 * expired username.
 */
import { createHmac } from 'node:crypto';

export interface TurnCredential {
  urls: string[];
  username: string;
  credential: string;
  /** When it stops working. */
  expiresAt: Date;
}

export function turnCredential(
  secret: string,
  urls: string[],
  userId: number,
  ttlMs: number,
  now = Date.now(),
): TurnCredential {
  const expiry = Math.floor((now + ttlMs) / 1000);
  const username = `${expiry}:${userId}`;
  const credential = createHmac('sha1', secret).update(username).digest('base64');
  return { urls, username, credential, expiresAt: new Date(expiry * 1000) };
}
