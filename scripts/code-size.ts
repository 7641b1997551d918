/**
 * Keeps the code readable on a screen: lists every source file over 400 lines and every function with more than
 * 150 lines of its own (its lines minus those of the functions written inside it, so that a module-level function
 * that declares small helpers is measured by what it does itself), and exits 1 when there is any.
 *
 * Reads packages/{name}/src, packages/{name}/test, e2e, bench and scripts; each .ts and .tsx file is parsed with
 * Babel's parser (TypeScript 7 has no JavaScript API), so a function is what the language says it is, not what a
 * pattern guesses.
 *
 *   node scripts/code-size.ts            every place
 *   node scripts/code-size.ts e2e bench  only these folders (paths from the repository's root)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from '@babel/parser';

export const MAX_FILE_LINES = 400;
export const MAX_OWN_FUNCTION_LINES = 150;

const ROOT = join(import.meta.dirname, '..');
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'data', 'test-results', 'playwright-report', '.cache']);
const FUNCTION_TYPES = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ObjectMethod',
  'ClassMethod',
  'ClassPrivateMethod',
]);

interface Node {
  type: string;
  loc?: { start: { line: number }; end: { line: number } };
  [key: string]: unknown;
}

export interface LongFile {
  file: string;
  lines: number;
}

export interface LongFunction {
  file: string;
  name: string;
  line: number;
  ownLines: number;
}

/** The places the check reads by default, from the repository's root. */
export function defaultPlaces(root = ROOT): string[] {
  const packages = readdirSync(join(root, 'packages')).flatMap((name) =>
    ['src', 'test'].map((folder) => join('packages', name, folder)),
  );
  return [...packages, 'e2e', 'bench', 'scripts'];
}

function sourceFiles(folder: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) return SKIPPED_FOLDERS.has(entry) ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry) && !entry.endsWith('.d.ts') ? [path] : [];
  });
}

function spanOf(node: Node): number {
  return node.loc ? node.loc.end.line - node.loc.start.line + 1 : 0;
}

function keyName(key: unknown): string | undefined {
  const node = key as Node | undefined;
  if (!node) return undefined;
  if (node.type === 'Identifier' || node.type === 'PrivateName')
    return String((node.id as Node | undefined)?.name ?? node.name);
  if (node.type === 'StringLiteral' || node.type === 'NumericLiteral') return String(node.value);
  return undefined;
}

/** A function's name as a reader would look for it: its own, its variable's, its property's or its method's. */
function nameOf(fn: Node, parent: Node | undefined): string {
  const own = keyName(fn.id) ?? keyName(fn.key);
  if (own) return own;
  if (parent?.type === 'VariableDeclarator') return keyName(parent.id) ?? '(anonymous)';
  if (parent?.type === 'ObjectProperty' || parent?.type === 'ClassProperty')
    return keyName(parent.key) ?? '(anonymous)';
  if (parent?.type === 'AssignmentExpression') {
    const target = parent.left as Node;
    return keyName(target) ?? keyName(target.property) ?? '(anonymous)';
  }
  if (parent?.type === 'CallExpression') {
    const callee = parent.callee as Node;
    return `(callback of ${keyName(callee) ?? keyName(callee.property) ?? 'a call'})`;
  }
  return '(anonymous)';
}

/** Every function of one file with its own lines: its span minus the spans of the functions directly inside. */
export function functionsOf(source: string, file: string): LongFunction[] {
  const ast = parse(source, {
    sourceType: 'module',
    plugins: file.endsWith('.tsx') ? ['typescript', 'jsx'] : ['typescript'],
  });
  const found: LongFunction[] = [];
  const visit = (node: Node, parent: Node | undefined, enclosing: { nested: number } | undefined): void => {
    let inside = enclosing;
    let own: { nested: number } | undefined;
    if (FUNCTION_TYPES.has(node.type)) {
      if (enclosing) enclosing.nested += spanOf(node);
      own = { nested: 0 };
      inside = own;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'loc' || key.endsWith('Comments')) continue;
      for (const child of Array.isArray(value) ? value : [value]) {
        if (child && typeof child === 'object' && typeof (child as Node).type === 'string') {
          visit(child as Node, node, inside);
        }
      }
    }
    if (own) {
      found.push({
        file,
        name: nameOf(node, parent),
        line: node.loc?.start.line ?? 0,
        ownLines: spanOf(node) - own.nested,
      });
    }
  };
  visit(ast.program as unknown as Node, undefined, undefined);
  return found;
}

/** The files over MAX_FILE_LINES and the functions over MAX_OWN_FUNCTION_LINES in the given places. */
export function measure(places: string[], root = ROOT): { files: LongFile[]; functions: LongFunction[] } {
  const files: LongFile[] = [];
  const functions: LongFunction[] = [];
  for (const path of places.flatMap((place) => sourceFiles(join(root, place)))) {
    const file = relative(root, path);
    const source = readFileSync(path, 'utf8');
    const lines = source.split('\n').length - (source.endsWith('\n') ? 1 : 0);
    if (lines > MAX_FILE_LINES) files.push({ file, lines });
    functions.push(...functionsOf(source, file).filter((fn) => fn.ownLines > MAX_OWN_FUNCTION_LINES));
  }
  return { files, functions };
}

if (import.meta.main) {
  const places = process.argv.slice(2);
  const { files, functions } = measure(places.length > 0 ? places : defaultPlaces());
  for (const { file, lines } of files) console.log(`${file}: ${lines} lines (at most ${MAX_FILE_LINES})`);
  for (const { file, name, line, ownLines } of functions) {
    console.log(`${file}:${line} ${name}: ${ownLines} lines of its own (at most ${MAX_OWN_FUNCTION_LINES})`);
  }
  if (files.length + functions.length > 0) process.exit(1);
  console.log(`No file over ${MAX_FILE_LINES} lines, no function over ${MAX_OWN_FUNCTION_LINES} lines of its own.`);
}
