/**
 * Completes package-lock.json with the other platforms' optional packages (Biome's and Rollup's native
 * binaries for macOS, Windows, musl...) that `npm install` leaves out when the registry it reaches does not
 * hold them. `npm ci` refuses a lock file that misses any of them ("Missing: @biomejs/cli-android-arm64 from
 * lock file"), on every machine. Each entry gets its version and, read from its name, the os, cpu and libc it
 * is for, so that npm installs it only there.
 *
 * Run after changing dependencies: npm install && npm run lock:complete
 */
import { readFileSync, writeFileSync } from 'node:fs';

const OS = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'openharmony', 'sunos', 'aix', 'win32', 'netbsd'];
const CPU = ['arm', 'arm64', 'ia32', 'loong64', 'mips64el', 'ppc64', 'riscv64', 's390x', 'x64'];

interface Entry {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
}

/** The platform a native package is for, from the words of its name (`@rollup/rollup-linux-arm64-musl`). */
export function platformOf(name: string): Pick<Entry, 'os' | 'cpu' | 'libc'> {
  const words = (name.split('/').pop() ?? name).split('-');
  const os = words.find((word) => OS.includes(word));
  const cpu = words.find((word) => CPU.includes(word));
  const libc = words.some((word) => word.startsWith('musl'))
    ? 'musl'
    : words.some((word) => word.startsWith('gnu'))
      ? 'glibc'
      : undefined;
  return {
    ...(os ? { os: [os] } : {}),
    ...(cpu ? { cpu: [cpu] } : {}),
    ...(libc && os === 'linux' ? { libc: [libc] } : {}),
  };
}

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8')) as { packages: Record<string, Entry> };
const added: string[] = [];
for (const [where, entry] of Object.entries(lock.packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${where}/node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[hoisted]) continue;
    if (!/^\d+\.\d+\.\d+/.test(range)) continue;
    lock.packages[hoisted] = {
      version: range,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platformOf(name),
    };
    added.push(`${name}@${range}`);
  }
}
const sorted = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en'))),
);
lock.packages = sorted;
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `added to the lock file: ${added.join(', ')}` : 'the lock file is complete');
