/**
 * The whole-list calls (getAllUsers, getAllChannels): the same answer as the protocol's, sent fast.
 *
 * - Built only when something it shows changed: list_version (migration 0007, kept by triggers in the writing
 *   transactions, shared by every instance) is read first; while it is the same, the last answer is sent again.
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

interface Built {
  version: number;
  etag: string;
  json: Buffer;
  bodies: Map<Encoding, Promise<Buffer>>;
}

/** Reads the number of writes to the lists' tables (db/list-version.ts). */
export type VersionReader = () => Promise<number>;

export function listSender(version: VersionReader) {
  const last = new Map<string, Built>();

  /** The list as it is now: the last one built while nothing changed since, else built again. */
  async function current(key: string, build: () => Promise<unknown>): Promise<Built> {
    // Read before building: a change that lands meanwhile gives a newer number next time, never an old list.
    const now = await version();
    const cached = last.get(key);
    if (cached?.version === now) return cached;
    const json = Buffer.from(JSON.stringify(await build()));
    const etag = `"${createHash('sha1').update(json).digest('base64url')}"`;
    // The same bytes under a newer number keep their compressed bodies.
    const built: Built =
      cached?.etag === etag ? { ...cached, version: now } : { version: now, etag, json, bodies: new Map() };
    built.bodies.set('identity', Promise.resolve(json));
    last.set(key, built);
    return built;
  }

  /** Sends a whole list's answer as JSON with an ETag, compressed when asked; 304 when unchanged. */
  return async function sendList(key: string, req: FastifyRequest, reply: FastifyReply, build: () => Promise<unknown>) {
    const entry = await current(key, build);
    const { etag, json } = entry;
    reply.header('etag', etag).header('cache-control', 'private, no-cache').header('vary', 'accept-encoding');
    if (matches(req.headers['if-none-match'], etag)) return reply.code(304).send();

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
