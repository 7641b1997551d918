/** The stripped copies the server runs (ops/prepare.ts): made again whenever their source's time differs. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { strippedPathOf, stripSources } from '../src/ops/prepare.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

it('strips each source once, and again when its time changes, even to an older one than its copy', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'talkgroup-prepare-'));
  folders.push(root);
  const sources = path.join(root, 'src');
  const stripped = path.join(root, 'stripped');
  mkdirSync(sources);
  const source = path.join(sources, 'a.ts');
  writeFileSync(source, 'export const a: number = 1;\n');
  expect(stripSources([sources], root, stripped)).toBe(1);
  expect(stripSources([sources], root, stripped)).toBe(0);
  const copy = strippedPathOf(source, root, stripped);
  expect(readFileSync(copy, 'utf8')).toContain('export const a');

  // A server read the source just before an edit and wrote its copy just after: the copy is newer than the
  // source but holds the old content. The times differ, so the next start strips it again.
  writeFileSync(source, 'export const b: number = 2;\n');
  const earlier = new Date(Date.now() - 60_000);
  utimesSync(source, earlier, earlier);
  expect(stripSources([sources], root, stripped)).toBe(1);
  expect(readFileSync(copy, 'utf8')).toContain('export const b');
  expect(stripSources([sources], root, stripped)).toBe(0);
});
