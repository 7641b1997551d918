/** Password hashing with node:crypto scrypt, a per-user salt and a constant-time compare. */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptFigures {
  N: number;
  r: number;
  p: number;
}

// OWASP's scrypt figures (Password Storage Cheat Sheet) trade memory for passes: N=2^17,r=8,p=1 or, the
// same cost with 16 MiB instead of 128 MiB per hash, N=2^14,r=8,p=5 (several sign-ins at once stay cheap in
// memory). Hashes made with older figures are upgraded at the next successful sign-in (needsRehash).
export const OWASP_FIGURES: ScryptFigures = Object.freeze({ N: 16384, r: 8, p: 5 });
const KEY_LENGTH = 32;
const SCRYPT_MAXMEM = 64 * 1024 * 1024;

// Today's figures. Only the unit tests change them (setScryptFiguresForTests): no setting, variable or request
// reaches this, and every server process (the browser tests' too) hashes with OWASP's figures.
let today: ScryptFigures = OWASP_FIGURES;

/**
 * The unit tests' figures: each test signs up and signs in several accounts on a fresh database, and at about
 * 150 ms of a core per hash, OWASP's figures were a third of the suite's time. Hashes stay real scrypt hashes
 * in the same format; passwords.test.ts and hash-pool.test.ts put OWASP's figures back and check them.
 */
export function setScryptFiguresForTests(figures: ScryptFigures): void {
  today = Object.freeze({ ...figures });
}

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N: n, r, p, maxmem: SCRYPT_MAXMEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** Today's figures, for a hasher of its own (hash-pool.ts): `scrypt(password.normalize('NFKC'), salt, ...)`. */
export function scryptOptions() {
  return { N: today.N, r: today.r, p: today.p, keyLength: KEY_LENGTH, maxmem: SCRYPT_MAXMEM };
}

/** `scrypt$N$r$p$salt$hash` (base64 parts) of a key made with today's figures. */
export function formatHash(salt: Buffer, key: Buffer, figures: ScryptFigures = today): string {
  return ['scrypt', figures.N, figures.r, figures.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Returns `scrypt$N$r$p$salt$hash` (base64 parts), so parameters can change without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const figures = today;
  return formatHash(salt, await derive(password, salt, figures.N, figures.r, figures.p), figures);
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
  return scheme !== 'scrypt' || Number(n) !== today.N || Number(r) !== today.r || Number(p) !== today.p;
}

let dummy: { figures: ScryptFigures; hash: Promise<string> } | undefined;

/**
 * A hash of a random password with today's figures: sign-in for an unknown login costs the same time as for a
 * known one. Made once, at the first sign-in that needs it (again only if the figures change: the tests').
 */
export function dummyHash(): Promise<string> {
  if (dummy?.figures !== today) dummy = { figures: today, hash: hashPassword(randomBytes(12).toString('base64')) };
  return dummy.hash;
}
