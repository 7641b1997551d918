/**
 * Sends a whole list (getAllUsers, getAllChannels): the same answer as the protocol's, kept up to date entry by
 * entry (lists/live-list.ts) and sent from its pieces (lists/pieces.ts).
 *
 * - Serialised with JSON.stringify, entry by entry: the stores build these answers field for field from the
 *   protocol's schemas (test/lists.test.ts checks that nothing more leaves), and validating 100,000 users on
 *   every call cost more than building them.
 * - An ETag (a hash of the bytes, from the pieces' hashes) on every answer: a console that has the list asks
 *   with If-None-Match and gets a 304 with no body while the list is unchanged.
 * - gzip when the client accepts it (every browser does), from the pieces' compressed forms, so that an
 *   answer after a change compresses only what changed (off the event loop, in zlib's thread pool). Not
 *   Brotli, though browsers prefer it: it cannot be pieced together (lists/pieces.ts), and compressing 74 MB
 *   again after each change took longer than sending it plain. A client without gzip gets the plain JSON
 *   (compressed by the global hook if it asks for Brotli only).
 * - Sent as the pieces, one after the other: no copy of the list per answer.
 */
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { encoded, type ListBody, type ListEncoding } from '../lists/pieces.ts';

/** The encoding to send a whole list in, among those the client accepts (q=0 refuses one). */
export function chooseEncoding(header: string | string[] | undefined): ListEncoding | 'identity' {
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
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

/** Sends a whole list's answer as JSON with an ETag, compressed when asked; 304 when unchanged. */
export async function sendList(req: FastifyRequest, reply: FastifyReply, body: ListBody) {
  reply.header('etag', body.etag).header('cache-control', 'private, no-cache').header('vary', 'accept-encoding');
  if (matches(req.headers['if-none-match'], body.etag)) return reply.code(304).send();

  const encoding = chooseEncoding(req.headers['accept-encoding']);
  const parts = encoding === 'identity' ? body.pieces.map((p) => p.bytes) : await encoded(body, encoding);
  let length = 0;
  for (const part of parts) length += part.length;
  reply.header('content-type', 'application/json; charset=utf-8').header('content-length', length);
  // Set here, the global compression hook leaves the body as it is.
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.send(Readable.from(parts, { objectMode: false }));
}
