/**
 * What `npm start` (packages/server/start.js) does before the server starts, in a process of its own:
 * - builds the web app only when it is missing or older than its sources (after an upgrade). A production
 *   install (npm install --omit=dev) has what the build needs; if a build fails while an older one exists, the
 *   server starts with that one and says so;
 * - strips the types of the server's and the protocol's TypeScript once, into STRIPPED_DIR (only the files
 *   changed since), so that the server process loads JavaScript and never holds Node's TypeScript stripper
 *   (about 30 MB of memory for as long as it runs: issue 18). Stripping blanks the types out and keeps every
 *   line and column where they were, so stack traces point at the sources.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
/** The stripped copies, mirroring the repository's paths (`packages/server/src/app.ts` -> `.../app.js`). */
export const STRIPPED_DIR = path.join(ROOT, 'node_modules/.cache/talkgroup-server');
/** The TypeScript the server runs: its own and the protocol's (tests excluded). */
export const SERVER_SOURCES = [path.join(ROOT, 'packages/server/src'), path.join(ROOT, 'packages/protocol/src')];
const WEB = path.join(ROOT, 'packages/web');
const BUILT = path.join(WEB, 'dist/index.html');
const SOURCES = [
  path.join(WEB, 'index.html'),
  path.join(WEB, 'vite.config.ts'),
  path.join(WEB, 'package.json'),
  path.join(WEB, 'src'),
  path.join(WEB, 'public'),
  path.join(WEB, 'build'),
  path.join(ROOT, 'packages/protocol/src'),
];

/** The newest modification time under these paths (files and folders, recursively). */
export function newestChange(paths: string[]): number {
  let newest = 0;
  const visit = (entry: string) => {
    if (!existsSync(entry)) return;
    const stat = statSync(entry);
    newest = Math.max(newest, stat.mtimeMs);
    if (stat.isDirectory()) for (const child of readdirSync(entry)) visit(path.join(entry, child));
  };
  for (const entry of paths) visit(entry);
  return newest;
}

export function builtAppIsCurrent(): boolean {
  return existsSync(BUILT) && statSync(BUILT).mtimeMs >= newestChange(SOURCES);
}

function ensureBuilt(): void {
  // An operator's own WEB_DIR is theirs to build.
  if (process.env.WEB_DIR !== undefined) return;
  if (builtAppIsCurrent()) return;
  console.log('Building the web app (its sources changed since the last build)...');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const build = spawnSync(npm, ['run', 'build', '-w', '@talkgroup/web'], {
    cwd: ROOT,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (build.status === 0) return;
  if (existsSync(BUILT)) {
    console.warn('The web app could not be rebuilt: serving the previous build.');
    return;
  }
  console.error('The web app could not be built and there is no previous build: see the errors above.');
  process.exit(1);
}

/** Where the stripped copy of a source file lives. */
export function strippedPathOf(source: string, root = ROOT, strippedDir = STRIPPED_DIR): string {
  return path.join(strippedDir, path.relative(root, source)).replace(/\.ts$/, '.js');
}

/**
 * Writes the stripped copy of every source file that has none or one of another time; returns how many it wrote.
 * Each copy is written beside its place and renamed into it: two servers starting at once never read half a
 * file.
 */
export function stripSources(sources = SERVER_SOURCES, root = ROOT, strippedDir = STRIPPED_DIR): number {
  let written = 0;
  const visit = (entry: string) => {
    const stat = statSync(entry);
    if (stat.isDirectory()) {
      for (const child of readdirSync(entry)) visit(path.join(entry, child));
      return;
    }
    if (!entry.endsWith('.ts') || entry.endsWith('.test.ts')) return;
    const target = strippedPathOf(entry, root, strippedDir);
    // A copy carries its source's modification time: any other time, later ones too, means another content (a
    // server that read the source just before an edit wrote its copy just after).
    if (existsSync(target) && Math.abs(statSync(target).mtimeMs - stat.mtimeMs) < 1) return;
    mkdirSync(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.tmp`;
    writeFileSync(temporary, stripTypeScriptTypes(readFileSync(entry, 'utf8'), { mode: 'strip' }));
    utimesSync(temporary, stat.atime, stat.mtime);
    renameSync(temporary, target);
    written += 1;
  };
  for (const source of sources) if (existsSync(source)) visit(source);
  return written;
}

if (import.meta.main) {
  ensureBuilt();
  stripSources();
}
