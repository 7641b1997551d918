/**
 * docs/api.md says who may make each call; packages/protocol declares it once per call and the server guards
 * by that declaration. This checks the page against the protocol, level by level and call by call.
 */
import { readFileSync } from 'node:fs';
import * as protocol from '@talkgroup/protocol';
import { describe, expect, it } from 'vitest';

const page = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');

/** The cells of every Markdown table row of the page. */
const rows = page
  .split('\n')
  .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
  .map((line) =>
    line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim()),
  );

const calls = Object.values(protocol).flatMap((value) => (protocol.isCall(value) ? [value] : []));

describe('docs/api.md and the protocol', () => {
  it('lists the access levels of the protocol, with what each means', () => {
    const levels = rows.filter(([name]) => name.startsWith('`') && name.slice(1, -1) in protocol.ACCESS_LEVELS);
    expect(Object.fromEntries(levels.map(([name, who]) => [name.slice(1, -1), who]))).toEqual(protocol.ACCESS_LEVELS);
  });

  it('gives every call of the protocol the access level the protocol declares', () => {
    const documented = new Map<string, string>();
    for (const [first, access] of rows) {
      const path = /^`(?:GET )?(\/[^`?\s]+)/.exec(first)?.[1];
      // A note may follow the level after a comma: "self, and the user must belong to the channel".
      if (path && access) documented.set(path, access.split(',')[0].replaceAll('`', '').trim());
    }
    const declared = new Map(calls.map((call) => [call.path, call.access as string]));
    expect(Object.fromEntries([...declared].map(([path]) => [path, documented.get(path)]))).toEqual(
      Object.fromEntries(declared),
    );
  });
});
