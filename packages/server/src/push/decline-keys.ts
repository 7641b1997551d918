/**
 * A ringing call's decline key (issue 47): the service worker declines a call from its notification without any
 * session token kept outside the tab. The call's push carries, encrypted to the callee's devices only, an
 * HMAC-SHA256 of the call and its callee under a key derived (HKDF) from DATA_DIR/secret.key (which every
 * instance shares); `declinePushedCall { callId, key }` declines that call, and only while it rings (so once).
 * The key opens nothing else: not another call, not the caller's side, not an answer.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export interface CallDeclineKeys {
  /** The key of this call for its callee. */
  of(callId: number, calleeId: number): string;
  /** Whether `given` is that key (compared in constant time). */
  matches(callId: number, calleeId: number, given: string): boolean;
}

export function callDeclineKeys(secret: Buffer): CallDeclineKeys {
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'talkgroup push call decline', 32));
  const of = (callId: number, calleeId: number) =>
    createHmac('sha256', key).update(`${callId}\n${calleeId}`).digest('base64url');
  return {
    of,
    matches(callId, calleeId, given) {
      const expected = Buffer.from(of(callId, calleeId));
      const offered = Buffer.from(given);
      return expected.length === offered.length && timingSafeEqual(expected, offered);
    },
  };
}
