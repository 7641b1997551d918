/**
 * `npm start`. JavaScript, not TypeScript, on purpose: the server process must never load Node's TypeScript
 * stripper, which stays in memory once loaded (about 30 MB of the server's RSS: issue 18).
 *
 * 1. src/ops/prepare.ts runs in a process of its own: it builds the web app when needed and writes the
 *    stripped JavaScript of the server's and the protocol's sources.
 * 2. A module hook hands Node that JavaScript for each of those sources (as long as the copy is not older than
 *    its source, else Node strips the source itself), so that every path, import and `import.meta.url` stays
 *    the source's.
 * 3. The server starts: src/main.ts.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { registerHooks } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '../..');
const STRIPPED_DIR = path.join(ROOT, 'node_modules/.cache/talkgroup-server');
const SOURCES = ['packages/server/src', 'packages/protocol/src'].map((dir) => path.join(ROOT, dir) + path.sep);

const prepared = spawnSync(
  process.execPath,
  ['--disable-warning=ExperimentalWarning', path.join(import.meta.dirname, 'src/ops/prepare.ts')],
  { stdio: 'inherit' },
);
if (prepared.status !== 0) process.exit(prepared.status ?? 1);

/** The stripped copy of a source file, if it is there and not older than the source. */
function strippedSource(file) {
  if (!SOURCES.some((dir) => file.startsWith(dir))) return undefined;
  const stripped = path.join(STRIPPED_DIR, path.relative(ROOT, file)).replace(/\.ts$/, '.js');
  try {
    if (statSync(stripped).mtimeMs < statSync(file).mtimeMs) return undefined;
    return readFileSync(stripped, 'utf8');
  } catch {
    return undefined;
  }
}

registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith('file:') && url.endsWith('.ts')) {
      const source = strippedSource(fileURLToPath(url));
      if (source !== undefined) return { format: 'module', source, shortCircuit: true };
    }
    return nextLoad(url, context);
  },
});

await import('./src/main.ts');
