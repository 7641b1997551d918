/** The users list's filter by status (issue 49). */
import { describe, expect, it } from 'vitest';
import { matchesStatus } from './statusFilter.ts';

const onScene = { status: { id: 3, label: { fr: 'Sur place', en: 'On scene', de: 'Vor Ort' }, color: '#ef6c00' } };
const entry = { ...onScene, since: '2026-11-26T10:00:00.000Z', setBy: null };

describe('the filter by status', () => {
  it('keeps everyone with "all"', () => {
    expect(matchesStatus('all', entry)).toBe(true);
    expect(matchesStatus('all', undefined)).toBe(true);
  });

  it('keeps the users with that status only', () => {
    expect(matchesStatus(3, entry)).toBe(true);
    expect(matchesStatus(4, entry)).toBe(false);
    expect(matchesStatus(3, undefined)).toBe(false);
  });

  it('keeps the users without a status with "none"', () => {
    expect(matchesStatus('none', undefined)).toBe(true);
    expect(matchesStatus('none', entry)).toBe(false);
  });
});
