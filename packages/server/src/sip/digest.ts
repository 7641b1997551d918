/**
 * SIP digest authentication on the INVITE (RFC 3261 §22, RFC 7616, RFC 8760), the server's side: the challenge a
 * gateway gets (a 401 with an MD5 challenge: see `challenge`) and
 * the check of its answer against the hashes the gateway's secret left (HA1 = H(login:realm:secret)).
 *
 * The nonce is a time and an HMAC of it with a key of this process, so any request carries what proves the nonce
 * ours and fresh (60 seconds; a stale one is challenged again with `stale=true`, and the gateway answers without
 * asking its user). As RFC 7616 means it (issue 57): the answer's `uri` must be the request's Request-URI, and a
 * nonce and `nc` pair is taken once, so that an answer seen once cannot be sent again, for another call or
 * another number. Only right answers are remembered, each until its nonce is stale: nobody without the secret
 * can fill that memory. The Authorization header is read with auth-header (RFC 7235's syntax), the SIP message
 * itself by SIP.js.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parse } from 'auth-header';
import { Grammar, type URI } from 'sip.js';

export const NONCE_TTL_MS = 60_000;
export type DigestAlgorithm = 'MD5' | 'SHA-256';

export const hashHex = (algorithm: DigestAlgorithm, text: string) =>
  createHash(algorithm === 'MD5' ? 'md5' : 'sha256')
    .update(text)
    .digest('hex');

/** What a gateway's credentials are checked against (its stored HA1s). */
export interface DigestSecret {
  ha1Md5: string;
  ha1Sha256: string;
}

/** The credentials of an INVITE, read from its Authorization header; undefined when it has none that we read. */
export interface DigestCredentials {
  username: string;
  realm: string;
  nonce: string;
  uri: string;
  response: string;
  algorithm: DigestAlgorithm;
  qop?: string;
  nc?: string;
  cnonce?: string;
}

const text = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export function readCredentials(header: string | undefined): DigestCredentials | undefined {
  if (!header) return undefined;
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(header);
  } catch {
    return undefined;
  }
  if (parsed.scheme.toLowerCase() !== 'digest') return undefined;
  const params = parsed.params;
  const [username, realm, nonce, uri, response] = ['username', 'realm', 'nonce', 'uri', 'response'].map((name) =>
    text(params[name]),
  );
  if (!username || !realm || !nonce || !uri || !response) return undefined;
  const algorithm = (text(params.algorithm) ?? 'MD5').toUpperCase();
  if (algorithm !== 'MD5' && algorithm !== 'SHA-256') return undefined;
  return {
    username,
    realm,
    nonce,
    uri,
    response: response.toLowerCase(),
    algorithm,
    qop: text(params.qop),
    nc: text(params.nc),
    cnonce: text(params.cnonce),
  };
}

/** Whether the answer's `uri` names the request's Request-URI (scheme, user, host and port; 5060 when none). */
export function sameRequestUri(given: string, requestUri: URI | undefined): boolean {
  if (!requestUri) return false;
  let uri: URI | undefined;
  try {
    uri = Grammar.URIParse(given);
  } catch {
    return false;
  }
  if (!uri) return false;
  const port = (value: URI) => value.port ?? (value.scheme === 'sips' ? 5061 : 5060);
  return (
    uri.scheme === requestUri.scheme &&
    (uri.user ?? '') === (requestUri.user ?? '') &&
    uri.host.toLowerCase() === requestUri.host.toLowerCase() &&
    port(uri) === port(requestUri)
  );
}

export type DigestVerdict = 'ok' | 'stale' | 'wrong' | 'replayed';

export function digestAuthority(realm: string, key = randomBytes(32)) {
  const sign = (stamp: string) => createHmac('sha256', key).update(stamp).digest('base64url').slice(0, 22);
  /** The nonce and nc pairs already taken, by nonce, with when the nonce goes stale. */
  const taken = new Map<string, { staleAt: number; counts: Set<string> }>();

  function forgetStale(now: number): void {
    for (const [nonce, entry] of taken) if (entry.staleAt < now) taken.delete(nonce);
  }

  /** Takes this nonce and nc pair once: false when it was taken before. */
  function takeOnce(nonce: string, nc: string, now: number): boolean {
    if (taken.size > 1000) forgetStale(now);
    let entry = taken.get(nonce);
    if (!entry) {
      entry = { staleAt: Number.parseInt(nonce.split('.')[0], 36) + NONCE_TTL_MS, counts: new Set() };
      taken.set(nonce, entry);
    }
    if (entry.counts.has(nc)) return false;
    entry.counts.add(nc);
    return true;
  }

  function nonce(now = Date.now()): string {
    const stamp = now.toString(36);
    return `${stamp}.${sign(stamp)}`;
  }

  /** ours (signed by this key) and how old. */
  function nonceState(value: string, now = Date.now()): 'fresh' | 'stale' | 'forged' {
    const [stamp, signature] = value.split('.');
    if (!stamp || !signature) return 'forged';
    const expected = Buffer.from(sign(stamp));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'forged';
    const age = now - Number.parseInt(stamp, 36);
    return age >= -5_000 && age <= NONCE_TTL_MS ? 'fresh' : 'stale';
  }

  return {
    realm,
    /**
     * The WWW-Authenticate value of a 401: MD5 only. A second challenge for SHA-256 (RFC 8760) would be right,
     * but a gateway may refuse a 401 that carries an algorithm it does not know, whatever else it carries:
     * baresip 1.0.0 (libre) ends the call with "Function not implemented". The SHA-256 hash is kept (and an
     * answer in SHA-256 is checked) so that it can be offered once gateways take it.
     */
    challenge(stale = false): string[] {
      return [`Digest realm="${realm}", nonce="${nonce()}", algorithm=MD5, qop="auth"${stale ? ', stale=true' : ''}`];
    },
    /**
     * Checks credentials for this request against the gateway's hashes: `ok`, `stale` (a right answer to an old
     * nonce: challenge again with stale=true), `replayed` (a right answer whose nonce and nc were taken already)
     * or `wrong` (a wrong answer, a forged nonce, or an answer for another Request-URI).
     */
    verify(
      credentials: DigestCredentials,
      request: { method: string; ruri: URI | undefined },
      secret: DigestSecret,
      now = Date.now(),
    ): DigestVerdict {
      if (credentials.realm !== realm || !sameRequestUri(credentials.uri, request.ruri)) return 'wrong';
      const method = request.method;
      const state = nonceState(credentials.nonce, now);
      if (state === 'forged') return 'wrong';
      const { algorithm } = credentials;
      const ha1 = algorithm === 'MD5' ? secret.ha1Md5 : secret.ha1Sha256;
      const ha2 = hashHex(algorithm, `${method}:${credentials.uri}`);
      const expected =
        credentials.qop === 'auth'
          ? hashHex(
              algorithm,
              `${ha1}:${credentials.nonce}:${credentials.nc ?? ''}:${credentials.cnonce ?? ''}:auth:${ha2}`,
            )
          : hashHex(algorithm, `${ha1}:${credentials.nonce}:${ha2}`);
      const a = Buffer.from(expected);
      const b = Buffer.from(credentials.response);
      if (a.length !== b.length || !timingSafeEqual(a, b)) return 'wrong';
      if (state === 'stale') return 'stale';
      return takeOnce(credentials.nonce, credentials.qop === 'auth' ? (credentials.nc ?? '') : '', now)
        ? 'ok'
        : 'replayed';
    },
  };
}

export type DigestAuthority = ReturnType<typeof digestAuthority>;
