/**
 * Chat images on disk and the signed URLs that serve them.
 *
 * Browsers load an <img> without custom headers, so the URL carries its own proof:
 * `/files/<name>?uid=<reader>&exp=<unix seconds>&sig=<HMAC-SHA256(name, uid, exp)>`. The key lives in
 * DATA_DIR/secret.key (random bytes written at first start, mode 0600). A URL is only handed to a user who
 * may read the channel, and GET checks the signature, the expiry and that this reader still may read it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { link, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImageMimeType } from '@talkgroup/protocol';

export const FILES_PREFIX = '/files/';
/** Generated names only: 32 hex characters and the extension of the recognised type. */
export const STORED_NAME = /^[0-9a-f]{32}\.(jpg|png|bmp|gif|webp)$/;
/** What a link may name: a chat image, or a recorded transmission (served under /files/voice/, voice/store.ts). */
const SIGNED_NAME = /^[0-9a-f]{32}\.(jpg|png|bmp|gif|webp|webm|ogg)$/;

const EXTENSIONS: Record<ImageMimeType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/bmp': 'bmp',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** The image type read from the first bytes; the file's name and declared type are never trusted. */
export function sniffImage(bytes: Uint8Array): ImageMimeType | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  const ascii = (offset: number, text: string) => [...text].every((ch, i) => bytes[offset + i] === ch.charCodeAt(0));
  if (bytes.length >= 3 && starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (bytes.length >= 8 && starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (bytes.length >= 6 && (ascii(0, 'GIF87a') || ascii(0, 'GIF89a'))) return 'image/gif';
  if (bytes.length >= 12 && ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  if (bytes.length >= 26 && ascii(0, 'BM')) {
    // BITMAPFILEHEADER: the declared size and pixel offset must fit, and the DIB header size must be a known one.
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const dibSize = view.getUint32(14, true);
    const offset = view.getUint32(10, true);
    if ([12, 40, 52, 56, 64, 108, 124].includes(dibSize) && offset >= 14 + dibSize && offset <= bytes.length)
      return 'image/bmp';
  }
  return undefined;
}

export interface FileUrls {
  /** The URL path (under `prefix`, /files/ by default) that lets `readerId` fetch this stored file until the expiry. */
  sign(name: string, readerId: number, now?: number, prefix?: string): string;
  /** Is this (name, uid, exp, sig) a URL this server signed and that has not expired? */
  verify(name: string, uid: string, exp: string, sig: string, now?: number): boolean;
}

/** The key of DATA_DIR/secret.key, created with 32 random bytes at first start. */
export function loadOrCreateSecret(dataDir: string): Buffer {
  const file = path.join(dataDir, 'secret.key');
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  if (key.length < 32) throw new Error(`${file} must hold at least 32 random bytes in hex`);
  return key;
}

export function fileUrls(secret: Buffer, ttlMs: number): FileUrls {
  const mac = (name: string, uid: string, exp: string) =>
    createHmac('sha256', secret).update(`${name}\n${uid}\n${exp}`).digest('base64url');
  return {
    sign(name, readerId, now = Date.now(), prefix = FILES_PREFIX) {
      // Rounded up to the hour, so that a list read twice gives the same URLs and the browser cache works.
      const hour = 3600_000;
      const exp = String(Math.ceil((now + ttlMs) / hour) * (hour / 1000));
      const uid = String(readerId);
      return `${prefix}${name}?uid=${uid}&exp=${exp}&sig=${mac(name, uid, exp)}`;
    },
    verify(name, uid, exp, sig, now = Date.now()) {
      if (!SIGNED_NAME.test(name) || !/^\d{1,12}$/.test(uid) || !/^\d{1,12}$/.test(exp)) return false;
      if (Number(exp) * 1000 <= now) return false;
      const expected = Buffer.from(mac(name, uid, exp));
      const given = Buffer.from(sig);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

/**
 * Writes a file whole or not at all: the bytes go to a temporary name beside it, then are linked under the
 * final name (which must not exist yet). A write cut short (the disk full, ENOSPC) leaves nothing behind, so no
 * reader ever finds half a file; the caller answers 507 (http/outages.ts).
 */
export async function writeWholeFile(file: string, bytes: Uint8Array): Promise<void> {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.part`;
  try {
    await writeFile(temporary, bytes, { flag: 'wx', mode: 0o600, flush: true });
    // link, not rename: it refuses an existing name, as the 'wx' flag did.
    await link(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
}

export function fileStore(dataDir: string) {
  const dir = path.join(dataDir, 'uploads');
  return {
    dir,
    pathOf(name: string): string {
      if (!STORED_NAME.test(name)) throw new Error('not a stored file name');
      return path.join(dir, name);
    },
    /** Writes the bytes under a generated random name and returns that name. */
    async save(bytes: Uint8Array, mime: ImageMimeType): Promise<string> {
      mkdirSync(dir, { recursive: true });
      const name = `${randomBytes(16).toString('hex')}.${EXTENSIONS[mime]}`;
      await writeWholeFile(path.join(dir, name), bytes);
      return name;
    },
    async remove(name: string): Promise<void> {
      if (STORED_NAME.test(name)) await rm(path.join(dir, name), { force: true });
    },
  };
}

export type FileStore = ReturnType<typeof fileStore>;
