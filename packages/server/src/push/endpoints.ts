/**
 * What a push subscription must be before the server sends to it (issue 34): an https endpoint that does not
 * lead into a private, loopback or link-local network (the server must not become a way into its own
 * network), unless its origin is listed in PUSH_ENDPOINT_ALLOW; a p256dh key that is a point of P-256 and a
 * 16-byte auth secret. The same address check runs again on every connection (guardedLookup), so that a name
 * that resolved to a public address when saved cannot lead elsewhere later.
 */
import { createECDH } from 'node:crypto';
import { type LookupAddress, type LookupAllOptions, type LookupOptions, lookup } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import type { PushSubscriptionInput, ServerMessageCode } from '@talkgroup/protocol';

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

/** A private, loopback, link-local (or otherwise not public) address, IPv4-mapped IPv6 included. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Whether the endpoint's origin is in PUSH_ENDPOINT_ALLOW (then its address is not checked). */
export function allowedOrigin(endpoint: string, allow: readonly string[]): boolean {
  try {
    return allow.includes(new URL(endpoint).origin);
  } catch {
    return false;
  }
}

function lookupAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    lookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );
}

/** Null when the endpoint may be saved, else the sentence's code. */
export async function checkEndpoint(endpoint: string, allow: readonly string[]): Promise<ServerMessageCode | null> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'push_endpoint_https';
  }
  if (url.protocol !== 'https:' || url.username || url.password) return 'push_endpoint_https';
  if (allow.includes(url.origin)) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = (await lookupAll(host)).map((entry) => entry.address);
    } catch {
      return 'push_endpoint_unknown';
    }
  }
  if (addresses.length === 0) return 'push_endpoint_unknown';
  return addresses.some(isPrivateAddress) ? 'push_endpoint_private' : null;
}

/** Null when the keys are a P-256 point (uncompressed, on the curve) and a 16-byte secret, else the code. */
export function checkKeys(keys: PushSubscriptionInput['keys']): ServerMessageCode | null {
  const base64url = /^[A-Za-z0-9_-]+={0,2}$/;
  const point = base64url.test(keys.p256dh) ? Buffer.from(keys.p256dh, 'base64url') : Buffer.alloc(0);
  if (point.length !== 65 || point[0] !== 4) return 'push_key_invalid';
  try {
    // Refuses a point that is not on the curve.
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(point);
  } catch {
    return 'push_key_invalid';
  }
  const auth = base64url.test(keys.auth) ? Buffer.from(keys.auth, 'base64url') : Buffer.alloc(0);
  return auth.length === 16 ? null : 'push_auth_invalid';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * dns.lookup for the push agent's connections: an answer with a private address fails the connection, so
 * that a name cannot be turned towards the server's own network after it was saved.
 */
export function guardedLookup(
  hostname: string,
  options: LookupOptions | LookupAllOptions | number,
  callback: LookupCallback,
): void {
  const opts = typeof options === 'number' ? { family: options } : options;
  lookup(hostname, { ...opts, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const refused = addresses.find((entry) => isPrivateAddress(entry.address));
    if (refused) {
      const denied: NodeJS.ErrnoException = new Error(`push endpoint ${hostname} resolves to ${refused.address}`);
      denied.code = 'EPUSHPRIVATE';
      return callback(denied, '');
    }
    if ((opts as LookupAllOptions).all) return callback(null, addresses);
    const [first] = addresses;
    if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
    callback(null, first.address, first.family);
  });
}
