/**
 * Compression of answers: br or gzip when the client asks (@fastify/compress), for JSON answers of 1 KB or more.
 * Brotli at quality 5: the plugin compresses in the request's turn of the event loop, and quality 11 would
 * take seconds on a large answer. The whole lists (http/lists.ts) compress themselves off the event loop and
 * the built assets are precompressed (the web build writes .br/.gz; @fastify/static preCompressed sends them):
 * an answer that already has a Content-Encoding is left as it is.
 */

import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

export async function registerCompression(fastify: FastifyInstance): Promise<void> {
  await fastify.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
    zlibOptions: { level: 6 },
  });
}
