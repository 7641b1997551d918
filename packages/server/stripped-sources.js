/**
 * The module hook that hands Node the stripped JavaScript of the server's and the protocol's TypeScript sources
 * (written by src/ops/prepare.ts), so that a thread of the server never loads Node's TypeScript stripper (about
 * 30 MB for as long as the thread runs: issue 18). A source without a fresh copy (one that does not carry its
 * source's modification time) is stripped by Node as usual. Hooks are a thread's own: start.js registers it for
 * the main thread, and each worker thread that runs the server's sources registers it first (process/worker-thread.ts: the report readers, the SIP relay).
 */
import { readFileSync, statSync } from 'node:fs';
import { registerHooks } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '../..');
const STRIPPED_DIR = path.join(ROOT, 'node_modules/.cache/talkgroup-server');
const SOURCES = ['packages/server/src', 'packages/protocol/src'].map((dir) => path.join(ROOT, dir) + path.sep);

/** The stripped copy of a source file, if it is there and carries its source's time (src/ops/prepare.ts). */
function strippedSource(file) {
  if (!SOURCES.some((dir) => file.startsWith(dir))) return undefined;
  const stripped = path.join(STRIPPED_DIR, path.relative(ROOT, file)).replace(/\.ts$/, '.js');
  try {
    if (Math.abs(statSync(stripped).mtimeMs - statSync(file).mtimeMs) >= 1) return undefined;
    return readFileSync(stripped, 'utf8');
  } catch {
    return undefined;
  }
}

/** Registers the hook for the calling thread. */
export function useStrippedSources() {
  registerHooks({
    load(url, context, nextLoad) {
      if (url.startsWith('file:') && url.endsWith('.ts')) {
        const source = strippedSource(fileURLToPath(url));
        if (source !== undefined) return { format: 'module', source, shortCircuit: true };
      }
      return nextLoad(url, context);
    },
  });
}
