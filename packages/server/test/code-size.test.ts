/**
 * Code that fits on a screen (issue 48): no source file over 400 lines and no function with more than 150 lines
 * of its own, as scripts/code-size.ts measures them, in every place it reads (packages, e2e, bench, scripts).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { functionsOf, MAX_OWN_FUNCTION_LINES } from '../../../scripts/code-size.ts';

const root = path.resolve(import.meta.dirname, '../../..');

describe('code size', () => {
  it('finds no file over 400 lines and no function over 150 lines of its own', async () => {
    const run = await promisify(execFile)(process.execPath, ['scripts/code-size.ts'], { cwd: root }).catch(
      (error: { code: number; stdout: string }) => error,
    );
    expect(run.stdout).toMatch(/^No file over 400 lines/);
  });

  it('counts a function by its own lines, not those of the functions written inside it', () => {
    const body = (lines: number) => Array.from({ length: lines }, (_, i) => `  const line${i} = ${i};`).join('\n');
    const source = [
      'export function outer() {',
      body(100),
      '  function inner() {',
      body(MAX_OWN_FUNCTION_LINES),
      '  }',
      '  return inner;',
      '}',
    ].join('\n');
    const measured = Object.fromEntries(functionsOf(source, 'sample.ts').map((fn) => [fn.name, fn.ownLines]));
    expect(measured).toEqual({ outer: 103, inner: MAX_OWN_FUNCTION_LINES + 2 });
  });
});
