/**
 * A whole list's answer as a row of pieces: runs of its JSON bytes that are built, hashed and compressed once
 * each and never changed after (a change makes a new piece). An answer after a change costs the pieces that
 * changed, not the list:
 * - the ETag is a hash of the pieces' hashes: a function of the bytes, the same on every instance;
 * - the plain answer is the pieces written one after the other (no copy of the list);
 * - the compressed answer (gzip) is the pieces' compressed forms one after the other: each piece's raw deflate
 *   ends with a sync flush (byte-aligned, no back-reference to what precedes it: what pigz does), inside one
 *   gzip member whose CRC is combined from the pieces' (crc32Combine below). Any gzip decoder reads it.
 * Brotli has no such form (its streams carry state from one meta-block to the next), and compressing the whole
 * list anew after each change took longer than sending it plain on a local network (bench/lists). zstd frames
 * could be laid one after the other (RFC 8878), but several decoders stop after the first frame (Node's own
 * zlib, nodejs/node#64741): a client would get part of the list without an error.
 */
import { hash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export type ListEncoding = 'gzip';

export interface Piece {
  readonly bytes: Buffer;
  readonly sha1: Buffer;
  /** The piece that ends the answer: its deflate ends the stream. */
  readonly final: boolean;
  /** Filled on first use. */
  compressed: Partial<Record<ListEncoding, Promise<Buffer>>>;
  crc?: number;
}

export function piece(bytes: Buffer, final = false): Piece {
  return { bytes, sha1: hash('sha1', bytes, 'buffer'), final, compressed: {} };
}

export interface ListBody {
  readonly pieces: readonly Piece[];
  /** Bytes of the plain answer. */
  readonly length: number;
  readonly etag: string;
  /** The compressed answer of each encoding, once asked. */
  readonly encoded: Partial<Record<ListEncoding, Promise<Buffer[]>>>;
}

export function listBody(pieces: readonly Piece[]): ListBody {
  let length = 0;
  for (const p of pieces) length += p.bytes.length;
  const etag = `"${hash('sha1', Buffer.concat(pieces.map((p) => p.sha1)), 'base64url')}"`;
  return { pieces, length, etag, encoded: {} };
}

const deflateRaw = promisify(zlib.deflateRaw);
/** zlib's default: gzip 9 took twice as long for 5% less (bench/lists, 10,000 users). */
const GZIP_LEVEL = 6;

function compress(p: Piece, encoding: ListEncoding): Promise<Buffer> {
  let done = p.compressed[encoding];
  if (!done) {
    done = deflateRaw(p.bytes, {
      level: GZIP_LEVEL,
      finishFlush: p.final ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH,
    });
    p.compressed[encoding] = done;
    // A failed compression is tried again by the next answer.
    done.catch(() => {
      if (p.compressed[encoding] === done) delete p.compressed[encoding];
    });
  }
  return done;
}

/** gzip's member header (RFC 1952): deflate, no name, no time, unknown system. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** The answer in this encoding: buffers to send one after the other. Computed once per body and encoding. */
export function encoded(body: ListBody, encoding: ListEncoding): Promise<Buffer[]> {
  let done = body.encoded[encoding];
  if (!done) {
    done = Promise.all(body.pieces.map((p) => compress(p, encoding))).then((parts) => {
      let crc = 0;
      for (const p of body.pieces) {
        p.crc ??= zlib.crc32(p.bytes);
        crc = crc32Combine(crc, p.crc, p.bytes.length);
      }
      const trailer = Buffer.alloc(8);
      trailer.writeUInt32LE(crc, 0);
      trailer.writeUInt32LE(body.length % 2 ** 32, 4);
      return [GZIP_HEADER, ...parts, trailer];
    });
    (body.encoded as Record<ListEncoding, Promise<Buffer[]>>)[encoding] = done;
    done.catch(() => {
      if (body.encoded[encoding] === done) delete (body.encoded as Record<string, unknown>)[encoding];
    });
  }
  return done;
}

// CRC-32 of two runs from the CRC of each (zlib's crc32_combine, with its x^(2^n) mod p table).
const CRC_POLY = 0xedb88320;

function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ CRC_POLY : b >>> 1;
  }
  return p >>> 0;
}

const X2N: number[] = [];
for (let n = 0, p = 0x40000000; n < 32; n++, p = multModP(p, p)) X2N.push(p);

/** x^(n * 2^k) modulo the CRC polynomial. */
function x2nModP(n: number, k: number): number {
  let p = 0x80000000;
  while (n) {
    if (n & 1) p = multModP(X2N[k & 31] as number, p);
    n = Math.floor(n / 2);
    k++;
  }
  return p;
}

/** The CRC-32 of A followed by B, from A's CRC, B's CRC and B's length. */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multModP(x2nModP(lengthB, 3), crcA) ^ crcB) >>> 0;
}

/** `{"success":true,"res":[` and `]}`: the answer around the list, as JSON.stringify writes it. */
const OPEN = piece(Buffer.from('{"success":true,"res":['));
const CLOSE = piece(Buffer.from(']}'), true);

/** The answer's pieces: the list's, inside `{"success":true,"res":[…]}`. */
export function answerPieces(list: readonly Piece[]): Piece[] {
  return [OPEN, ...list, CLOSE];
}
