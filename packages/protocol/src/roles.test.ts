/**
 * The rules of issue 69 written once in the role table: watching goes down the ranks (an administrator also acts
 * on other administrators), and a membership an area made (or a regroup made for one who did not create it) gives a
 * member's rights, whatever the role.
 */
import { describe, expect, it } from 'vitest';
import { CAPABILITY_NAMES, type Capability, may, mayActOn } from './roles.ts';

describe('mayActOn', () => {
  it('goes down the ranks: member below dispatcher below administrator', () => {
    expect(mayActOn({ role: 'dispatcher' }, 'member')).toBe(true);
    expect(mayActOn({ role: 'dispatcher' }, 'dispatcher')).toBe(false);
    expect(mayActOn({ role: 'dispatcher' }, 'admin')).toBe(false);
    expect(mayActOn({ role: 'member' }, 'member')).toBe(false);
    expect(mayActOn({ role: 'member' }, 'dispatcher')).toBe(false);
  });

  it('lets an administrator act on anyone, other administrators included', () => {
    for (const target of ['member', 'dispatcher', 'admin']) expect(mayActOn({ role: 'admin' }, target)).toBe(true);
  });

  it('ranks an unknown role below every known one, and lets it act on nobody', () => {
    expect(mayActOn({ role: 'member' }, 'auditor')).toBe(true);
    expect(mayActOn({ role: 'auditor' }, 'auditor')).toBe(false);
    expect(mayActOn({ role: 'auditor' }, 'member')).toBe(false);
  });
});

describe("a membership that gives a member's rights only (an area's, a regroup's)", () => {
  const area = { member: true, canTalk: true, memberRightsOnly: true };
  const hand = { member: true, canTalk: true };
  const memberRights: Capability[] = ['channel.read', 'channel.listen', 'channel.talk', 'channel.chat'];

  it("gives a dispatcher a member's rights only: never dispatch, devices, video requests, trails or alerts", () => {
    const dispatcher = { role: 'dispatcher', mapRight: true };
    for (const capability of memberRights) expect(may(dispatcher, area, capability)).toBe(true);
    const dispatcherOnly = CAPABILITY_NAMES.filter(
      (c) => c.startsWith('channel.') && !may({ role: 'member', mapRight: true }, hand, c),
    );
    expect(dispatcherOnly).toContain('channel.dispatch');
    for (const capability of dispatcherOnly) {
      expect(may(dispatcher, hand, capability)).toBe(true);
      expect(may(dispatcher, area, capability)).toBe(false);
    }
  });

  it("gives a member what a member's membership gives, the map with map access", () => {
    expect(may({ role: 'member', mapRight: true }, area, 'channel.map')).toBe(true);
    expect(may({ role: 'member' }, area, 'channel.map')).toBe(false);
    expect(may({ role: 'member' }, { ...area, canTalk: false }, 'channel.talk')).toBe(false);
  });

  it("gives a dispatcher the map as a member's: with map access only", () => {
    expect(may({ role: 'dispatcher' }, hand, 'channel.map')).toBe(true);
    expect(may({ role: 'dispatcher' }, area, 'channel.map')).toBe(false);
    expect(may({ role: 'dispatcher', mapRight: true }, area, 'channel.map')).toBe(true);
    expect(may({ role: 'dispatcher' }, { ...area, canTalk: false }, 'channel.videoShare')).toBe(false);
  });

  it('gives an unknown role nothing, whatever its membership', () => {
    for (const capability of memberRights) expect(may({ role: 'auditor' }, area, capability)).toBe(false);
  });

  it('changes nothing for an administrator, who holds every right everywhere', () => {
    for (const capability of CAPABILITY_NAMES) expect(may({ role: 'admin' }, area, capability)).toBe(true);
  });
});
