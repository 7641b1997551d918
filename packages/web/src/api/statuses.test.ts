/** A member's status change patches the cached statuses (no refetch); a label in the page's language. */
import { describe, expect, it } from 'vitest';
import { patchMemberStatus, statusLabel } from './statuses.ts';

const onScene = { id: 3, label: { fr: 'Sur place', en: 'On scene', de: 'Vor Ort' }, color: '#ef6c00' };
const entry = (userId: number, statusId: number | null) => ({
  userId,
  statusId,
  since: statusId === null ? null : '2026-11-26T10:00:00.000Z',
  setBy: null,
});

describe('patchMemberStatus', () => {
  const answer = { success: true, res: [entry(1, 2), entry(2, 3)] };

  it('replaces the user’s status, adds a new one, and removes a cleared one', () => {
    expect(patchMemberStatus(answer, entry(1, 3))?.res).toEqual([entry(2, 3), entry(1, 3)]);
    expect(patchMemberStatus(answer, entry(7, 1))?.res).toHaveLength(3);
    expect(patchMemberStatus(answer, entry(2, null))?.res).toEqual([entry(1, 2)]);
    expect(patchMemberStatus(undefined, entry(2, null))).toBeUndefined();
  });
});

describe('statusLabel', () => {
  it('reads the page’s language, French when it is unknown', () => {
    expect(statusLabel(onScene, 'en-GB')).toBe('On scene');
    expect(statusLabel(onScene, 'de')).toBe('Vor Ort');
    expect(statusLabel(onScene, 'it')).toBe('Sur place');
  });
});
