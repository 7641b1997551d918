/**
 * docs/api.md says who may make each call; packages/protocol declares it once per call and the server guards
 * by that declaration. This checks the page against the protocol: the roles, the access levels, the
 * capabilities with who holds each (protocol's ROLE_RULES), and the access of every call. A level, a
 * capability, a role or a rule added to the protocol fails here until the page says it.
 */
import { readFileSync } from 'node:fs';
import * as protocol from '@talkgroup/protocol';
import { describe, expect, it } from 'vitest';

const page = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');

const cellsOf = (line: string) =>
  line
    .slice(1, -1)
    .split('|')
    .map((cell) => cell.trim());

/** The page's Markdown tables: each its header's cells and its rows' cells. */
const tables: Array<{ header: string[]; rows: string[][] }> = [];
let inTable = false;
for (const line of page.split('\n').map((text) => text.trim())) {
  if (!line.startsWith('|')) inTable = false;
  else if (/^\|\s*:?-/.test(line)) continue;
  else if (inTable) tables[tables.length - 1].rows.push(cellsOf(line));
  else {
    tables.push({ header: cellsOf(line), rows: [] });
    inTable = true;
  }
}

/** The one table whose header starts so. */
function tableHeaded(...first: string[]) {
  const found = tables.filter((table) => first.every((cell, i) => table.header[i] === cell));
  expect(found, `one table headed ${first.join(' | ')}`).toHaveLength(1);
  return found[0];
}

const unquote = (cell: string) => cell.replaceAll('`', '').trim();

/** How a role holds a capability, in the page's words. */
function holding(role: protocol.Role, capability: protocol.Capability): string {
  const rules: protocol.RoleRules = protocol.ROLE_RULES[role];
  if (rules.everywhere.includes(capability)) return 'everywhere';
  const grant = rules.inOwnChannels[capability];
  if (grant === true) return 'its channels';
  if (grant === 'canTalk') return 'its channels, if canTalk';
  if (grant === 'mapRight') return 'its channels, if mapRight';
  return '—';
}

const calls = Object.values(protocol).flatMap((value) => (protocol.isCall(value) ? [value] : []));
/** The exports answer files, so they are not calls of the contract, but they declare their access too. */
const guarded = [...calls, protocol.VoiceExport, protocol.PositionExport];

describe('docs/api.md and the protocol', () => {
  it('lists the access levels of the protocol, with what each means', () => {
    const { rows } = tableHeaded('access', 'who');
    expect(Object.fromEntries(rows.map(([name, who]) => [unquote(name), who]))).toEqual(protocol.ACCESS_LEVELS);
  });

  it('lists the capabilities of the protocol, what each covers and how each role holds it', () => {
    const { header, rows } = tableHeaded('capability', 'what it covers');
    expect(header.slice(2)).toEqual(protocol.ROLES);
    const documented = Object.fromEntries(rows.map(([name, ...rest]) => [unquote(name), rest.map(unquote)]));
    const declared = Object.fromEntries(
      protocol.CAPABILITY_NAMES.map((capability) => [
        capability,
        [protocol.CAPABILITIES[capability], ...protocol.ROLES.map((role) => holding(role, capability))],
      ]),
    );
    expect(documented).toEqual(declared);
  });

  it('gives every call of the protocol the access the protocol declares, a level or a capability', () => {
    const documented = new Map<string, string>();
    for (const { rows } of tables) {
      for (const [first, access] of rows) {
        const path = /^`(?:GET )?(\/[^`?\s]+)/.exec(first)?.[1];
        // A note may follow the access after a comma: "self, and the user must belong to the channel".
        if (path && access) documented.set(path, unquote(access.split(',')[0]));
      }
    }
    const declared = new Map(guarded.map((call) => [call.path, call.access as string]));
    expect(Object.fromEntries([...declared].map(([path]) => [path, documented.get(path)]))).toEqual(
      Object.fromEntries(declared),
    );
    for (const access of declared.values())
      expect(access in protocol.ACCESS_LEVELS || protocol.isCapability(access), access).toBe(true);
  });
});
