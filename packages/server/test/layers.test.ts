/**
 * The server's layers (issue 71, docs/server.md): `npm run lint` refuses an import that runs back up a layer or
 * closes a circle, between folders (packages/server/biome.json's restricted imports, one rule per step) and between
 * files (Biome's noImportCycles, type-only imports included). Each fixture is linted with the project's own two
 * configuration files, copied beside it into a folder of its own: the tree the lint reads is never touched.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const biome = path.join(root, 'node_modules/.bin/biome');
let house: string;

beforeAll(async () => {
  house = await mkdtemp(path.join(tmpdir(), 'talkgroup-layers-'));
  await mkdir(path.join(house, 'packages/server'), { recursive: true });
  await copyFile(path.join(root, 'biome.json'), path.join(house, 'biome.json'));
  await copyFile(path.join(root, 'packages/server/biome.json'), path.join(house, 'packages/server/biome.json'));
});

afterAll(async () => {
  await rm(house, { recursive: true, force: true });
});

/** Writes these files under a new packages/server/src of the fixture's own and lints them as `npm run lint` does. */
async function lint(files: Record<string, string>): Promise<{ failed: boolean; output: string }> {
  const tree = await mkdtemp(path.join(house, 'case-'));
  await mkdir(path.join(tree, 'packages/server'), { recursive: true });
  await copyFile(path.join(house, 'biome.json'), path.join(tree, 'biome.json'));
  await copyFile(path.join(house, 'packages/server/biome.json'), path.join(tree, 'packages/server/biome.json'));
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(tree, 'packages/server/src', name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  const run = await promisify(execFile)(biome, ['lint', '--max-diagnostics=50', 'packages/server/src'], {
    cwd: tree,
  }).then(
    ({ stdout, stderr }) => ({ failed: false, output: stdout + stderr }),
    (error: { stdout: string; stderr: string }) => ({ failed: true, output: error.stdout + error.stderr }),
  );
  return run;
}

describe('the server layers lint', () => {
  it('refuses a base folder that imports a domain, naming the file and the rule', async () => {
    const run = await lint({
      'db/upward.ts': "import { channelStore } from '../channels/store.ts';\nexport const store = channelStore;\n",
      'channels/store.ts': 'export const channelStore = 1;\n',
    });
    expect(run.failed).toBe(true);
    expect(run.output).toContain('packages/server/src/db/upward.ts');
    expect(run.output).toContain('lint/style/noRestrictedImports');
    expect(run.output).toContain('Server layers (docs/server.md)');
    expect(run.output).toContain('runs back up a layer');
  });

  it('refuses a domain that imports the sockets (realtime/), even for a type', async () => {
    const run = await lint({
      'devices/watch.ts': "import type { Io } from '../realtime/io.ts';\nexport type Server = Io;\n",
      'realtime/io.ts': 'export type Io = number;\n',
    });
    expect(run.failed).toBe(true);
    expect(run.output).toContain('packages/server/src/devices/watch.ts');
    expect(run.output).toContain('devices/');
  });

  it('refuses a domain that imports a domain of a higher step, which could close a circle between folders', async () => {
    const run = await lint({
      'channels/routes.ts': "import { follow } from '../areas/follow.ts';\nexport const routes = follow;\n",
      'areas/follow.ts': 'export const follow = 1;\n',
    });
    expect(run.failed).toBe(true);
    expect(run.output).toContain('packages/server/src/channels/routes.ts');
    expect(run.output).toContain('channels/ is domains, step 4');
  });

  it('accepts an import down the layers', async () => {
    const run = await lint({
      'areas/follow.ts': "import { channelStore } from '../channels/store.ts';\nexport const follow = channelStore;\n",
      'channels/store.ts': "import { parse } from '../config/values.ts';\nexport const channelStore = parse;\n",
      'config/values.ts': 'export const parse = 1;\n',
    });
    expect(run.output).not.toContain('noRestrictedImports');
    expect(run.failed).toBe(false);
  });

  it('refuses a circle between two files of one folder, made of type-only imports', async () => {
    const run = await lint({
      'voice/store.ts': "import type { Sweep } from './retention.ts';\nexport interface Store { sweep: Sweep }\n",
      'voice/retention.ts': "import type { Store } from './store.ts';\nexport interface Sweep { store: Store }\n",
    });
    expect(run.failed).toBe(true);
    expect(run.output).toContain('lint/suspicious/noImportCycles');
  });
});
