/**
 * Precompressed assets: after the build, every compressible file of the output (scripts, styles, the page,
 * texts, the manifest, SVG) of 1 KB or more gets a `.br` (Brotli, best quality: it is done once) and a `.gz`
 * beside it. The server sends them to browsers that accept them (@fastify/static `preCompressed`), so no
 * request pays for compression.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|webmanifest|txt|map)$/i;
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield full;
  }
}

export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'talkgroup-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      sequential: true,
      order: 'post',
      handler() {
        let count = 0;
        for (const file of files(outDir)) {
          if (!COMPRESSIBLE.test(file)) continue;
          const bytes = readFileSync(file);
          if (bytes.length < MIN_BYTES) continue;
          writeFileSync(
            `${file}.br`,
            brotliCompressSync(bytes, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            }),
          );
          writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
          count += 1;
        }
        this.info?.(`precompressed ${count} files (.br, .gz)`);
      },
    },
  };
}
