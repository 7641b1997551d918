/** Password hashing with node:crypto scrypt, a per-user salt and a constant-time compare. */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// OWASP's scrypt figures (Password Storage Cheat Sheet) trade memory for passes: N=2^17,r=8,p=1 or, the
// same cost with 16 MiB instead of 128 MiB per hash, N=2^14,r=8,p=5 (several sign-ins at once stay cheap in
// memory). Hashes made with older figures are upgraded at the next successful sign-in (needsRehash).
const N = 16384;
const R = 8;
const P = 5;
const KEY_LENGTH = 32;
const SCRYPT_MAXMEM = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N: n, r, p, maxmem: SCRYPT_MAXMEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** Today's figures, for a hasher of its own (hash-pool.ts): `scrypt(password.normalize('NFKC'), salt, ...)`. */
export const SCRYPT = { N, r: R, p: P, keyLength: KEY_LENGTH, maxmem: SCRYPT_MAXMEM } as const;

/** `scrypt$N$r$p$salt$hash` (base64 parts) of a key made with today's figures. */
export function formatHash(salt: Buffer, key: Buffer): string {
  return ['scrypt', N, R, P, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Returns `scrypt$N$r$p$salt$hash` (base64 parts), so parameters can change without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return formatHash(salt, await derive(password, salt, N, R, P));
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** True when the stored hash was made with other figures than today's: rehash it after a good sign-in. */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split('$');
  return scheme !== 'scrypt' || Number(n) !== N || Number(r) !== R || Number(p) !== P;
}

/** A hash of a random password: sign-in for an unknown login costs the same time as for a known one. */
export const DUMMY_HASH = await hashPassword(randomBytes(12).toString('base64'));
