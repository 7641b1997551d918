/**
 * `npm start`. JavaScript, not TypeScript, on purpose: the server process must never load Node's TypeScript
 * stripper, which stays in memory once loaded (about 30 MB of the server's RSS: issue 18).
 *
 * 1. src/ops/prepare.ts runs in a process of its own: it builds the web app when needed and writes the
 *    stripped JavaScript of the server's and the protocol's sources.
 * 2. A module hook (stripped-sources.js) hands Node that JavaScript for each of those sources (as long as the copy carries its source's
 *    modification time, else Node strips the source itself), so that every path, import and `import.meta.url` stays
 *    the source's.
 * 3. The server starts: src/main.ts.
 *
 * First of all, on Linux, the process puts itself in place again (execve: the same process id, arguments and
 * flags) with glibc's malloc told to hand every block of 4 MB or more straight back to the system when it is
 * freed (MALLOC_MMAP_THRESHOLD_). Each password hash (scrypt, src/auth/passwords.ts) takes a 16 MB block on one
 * of libuv's or the import's threads; by default glibc raises that threshold to the largest block freed so far,
 * after which those blocks stay in each thread's arena for good: about 70 MB more after an import of 700 users
 * and 500 sign-ins (docs/memory.md). An operator's own MALLOC_MMAP_THRESHOLD_ is kept as it is.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { useStrippedSources } from './stripped-sources.js';

/** Blocks of this size or more go back to the system when freed (glibc; other libcs ignore the variable). */
const MMAP_THRESHOLD_BYTES = 4 * 1024 * 1024;
if (process.platform === 'linux' && process.env.MALLOC_MMAP_THRESHOLD_ === undefined && process.execve) {
  process.execve(
    process.execPath,
    [process.execPath, ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    {
      ...process.env,
      MALLOC_MMAP_THRESHOLD_: String(MMAP_THRESHOLD_BYTES),
    },
  );
}

const prepared = spawnSync(
  process.execPath,
  ['--disable-warning=ExperimentalWarning', path.join(import.meta.dirname, 'src/ops/prepare.ts')],
  { stdio: 'inherit' },
);
if (prepared.status !== 0) process.exit(prepared.status ?? 1);

useStrippedSources();

await import('./src/main.ts');
