/**
 * `npm start`: builds the web app only when it is missing or older than its sources (after an upgrade), then
 * starts the server. A production install (npm install --omit=dev) has what the build needs; if a build
 * fails while an older one exists, the server starts with that one and says so.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
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

if (import.meta.main) {
  ensureBuilt();
  await import('../main.ts');
}
