/**
 * The README and the pages of docs/ point at each other and at the code: every relative link (and image) must
 * lead to a file or folder that exists, and a link's #anchor to a heading of the Markdown page it names (the
 * anchor GitHub makes of it). A page moved or renamed, or a heading reworded, fails here until its links follow.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function markdownUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(folder, name))
    .sort();
}

const pages = [path.join(root, 'README.md'), ...markdownUnder(path.join(root, 'docs'))];

/** The page's lines outside fenced code blocks, with inline code taken out (a link there is an example). */
function proseLines(text: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      continue;
    }
    if (fence === undefined) lines.push(line.replace(/(`+)[^`]*?\1/g, ''));
  }
  return lines;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped (not `-` nor `_`), spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

const anchorsCache = new Map<string, Set<string>>();
/** The anchors of a Markdown page's headings; a repeated heading gets -1, -2, ... as on GitHub. */
function anchorsOf(file: string): Set<string> {
  const known = anchorsCache.get(file);
  if (known) return known;
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const anchor = anchorOf(heading);
    const count = seen.get(anchor) ?? 0;
    seen.set(anchor, count + 1);
    anchors.add(count === 0 ? anchor : `${anchor}-${count}`);
  }
  anchorsCache.set(file, anchors);
  return anchors;
}

/** Every link target of a page: Markdown links and images, and HTML href/src attributes. */
function targetsOf(file: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(readFileSync(file, 'utf8'))) {
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1]);
    for (const match of line.matchAll(/\b(?:href|src)="([^"]+)"/g)) targets.push(match[1]);
  }
  return targets;
}

/** Why a relative link is broken, or undefined when it leads somewhere. */
function brokenReason(from: string, target: string): string | undefined {
  const [rawPath, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = rawPath === '' ? from : path.resolve(path.dirname(from), decodeURIComponent(rawPath));
  if (!existsSync(file)) return 'no such file';
  if (anchor === undefined || anchor === '') return undefined;
  if (statSync(file).isDirectory() || !file.endsWith('.md')) return 'an anchor into a page that is not Markdown';
  return anchorsOf(file).has(decodeURIComponent(anchor).toLowerCase()) ? undefined : `no heading #${anchor}`;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

describe('documentation links', () => {
  it('finds the README and the pages of docs/, and their links', () => {
    expect(pages.length).toBeGreaterThan(10);
    const readmeLinks = targetsOf(pages[0]).filter((target) => !isExternal(target));
    expect(readmeLinks.length).toBeGreaterThan(20);
  });

  it.each(pages.map((page) => [path.relative(root, page), page]))(
    '%s: every relative link leads somewhere',
    (_, page) => {
      const broken = targetsOf(page)
        .filter((target) => !isExternal(target))
        .map((target) => ({ target, reason: brokenReason(page, target) }))
        .filter((link) => link.reason !== undefined)
        .map((link) => `${link.target}: ${link.reason}`);
      expect(broken).toEqual([]);
    },
  );

  it('keeps the README for newcomers: 200 lines at most, the rest in docs/', () => {
    const lines = readFileSync(pages[0], 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(200);
  });

  it('reads anchors as GitHub makes them', () => {
    expect(anchorOf('Node.js 24')).toBe('nodejs-24');
    expect(anchorOf('A channel through the media server (`npm run bench:media`)')).toBe(
      'a-channel-through-the-media-server-npm-run-benchmedia',
    );
    expect(anchorOf('Passkeys, two-step verification and sessions')).toBe(
      'passkeys-two-step-verification-and-sessions',
    );
    expect(anchorOf('The dispatch console’s socket events (issue 27)')).toBe(
      'the-dispatch-consoles-socket-events-issue-27',
    );
  });
});
