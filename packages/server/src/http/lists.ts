/**
 * The whole-list calls (getAllUsers, getAllChannels): the same answer as the protocol's, sent fast.
 *
 * - Serialised once with JSON.stringify: the stores build these answers field for field from the protocol's
 *   schemas (test/lists.test.ts checks that nothing more leaves), and validating 100,000 users on every call
 *   cost more than building them.
 * - An ETag (a hash of the bytes) on every answer: a console that has the list asks with If-None-Match and gets
 *   a 304 with no body while the list is unchanged.
 * - Compressed when asked (br, else gzip), off the event loop (zlib's thread pool), at a quality that keeps
 *   up with the list's size; the last answer of each list keeps its compressed bytes while it stays the same,
 *   so consoles asking for an unchanged list cost one hash, not one compression each.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

type Encoding = 'br' | 'gzip' | 'identity';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** Brotli 5 compresses a 6 MB list to about gzip 9's size in a fraction of its time; 11 takes seconds. */
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;

/** The encoding the client prefers among those it accepts (q=0 refuses one). */
export function chooseEncoding(header: string | string[] | undefined): Encoding {
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return 'identity';
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}

export function listSender() {
  const last = new Map<string, { etag: string; bodies: Map<Encoding, Promise<Buffer>> }>();

  /** Sends `value` (a whole list's answer) as JSON with an ETag, compressed when asked; 304 when unchanged. */
  return async function sendList(key: string, req: FastifyRequest, reply: FastifyReply, value: unknown) {
    const json = Buffer.from(JSON.stringify(value));
    const etag = `"${createHash('sha1').update(json).digest('base64url')}"`;
    reply.header('etag', etag).header('cache-control', 'private, no-cache').header('vary', 'accept-encoding');
    if (matches(req.headers['if-none-match'], etag)) return reply.code(304).send();

    let entry = last.get(key);
    if (entry?.etag !== etag) {
      entry = { etag, bodies: new Map([['identity', Promise.resolve(json)]]) };
      last.set(key, entry);
    }
    const encoding = chooseEncoding(req.headers['accept-encoding']);
    let body = entry.bodies.get(encoding);
    if (!body) {
      body =
        encoding === 'br'
          ? brotli(json, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: json.length,
              },
            })
          : gzip(json, { level: GZIP_LEVEL });
      entry.bodies.set(encoding, body);
    }
    reply.header('content-type', 'application/json; charset=utf-8');
    // Set here, the global compression hook leaves the body as it is.
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.send(await body);
  };
}

export type SendList = ReturnType<typeof listSender>;
