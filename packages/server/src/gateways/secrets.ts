/**
 * A gateway's SIP secret (issue 51): made here, shown once to the administrator, and kept only as the digest
 * hashes a SIP server checks an Authorization header against (RFC 7616's HA1, in MD5 for the many radio
 * gateways that know nothing else, and in SHA-256).
 */
import { createHash, randomInt } from 'node:crypto';
import { GATEWAY_SECRET_LENGTH } from '@talkgroup/protocol';

/** Letters and digits only: a radio's web page or keypad takes them all, and nothing needs quoting in SIP. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export type DigestAlgorithm = 'MD5' | 'SHA-256';

/** GATEWAY_SECRET_LENGTH characters drawn uniformly (randomInt rejects the values a modulo would favour). */
export function newSecret(): string {
  let secret = '';
  for (let i = 0; i < GATEWAY_SECRET_LENGTH; i++) secret += ALPHABET[randomInt(ALPHABET.length)];
  return secret;
}

/** HA1 = H(login:realm:secret), lower-case hex (RFC 7616 section 3.4.2, without the -sess variant). */
export function digestHa1(login: string, realm: string, secret: string, algorithm: DigestAlgorithm): string {
  return createHash(algorithm === 'MD5' ? 'md5' : 'sha256')
    .update(`${login}:${realm}:${secret}`)
    .digest('hex');
}
