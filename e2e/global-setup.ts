/** `npx playwright test` on a fresh clone: build the web app once if it was never built. */
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export default function globalSetup(): void {
  const root = path.resolve(import.meta.dirname, '..');
  if (existsSync(path.join(root, 'packages/web/dist/index.html'))) return;
  console.log('packages/web/dist is missing: building the web app (npm run build)');
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
