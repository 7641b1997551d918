import { describe, expect, it } from 'vitest';
import { markerLabel } from './map/markerLabel.ts';
import { gridBand, gridColumns } from './participants/gridLayout.ts';

describe('map marker label', () => {
  it('takes the first, second and last letters of the pseudo in upper case', () => {
    expect(markerLabel('mimi')).toBe('MII');
    expect(markerLabel('  jean-luc ')).toBe('JEC');
    expect(markerLabel('éloïse')).toBe('ÉLE');
  });
  it('keeps a short pseudo whole and marks a missing one', () => {
    expect(markerLabel('al')).toBe('AL');
    expect(markerLabel('')).toBe('?');
  });
});

describe('participants grid layout', () => {
  it('has one layout per band of participants: 1, 2–4, 5–6, 7–8 and 9–13', () => {
    expect([1, 2, 4, 5, 6, 7, 8, 9, 13].map(gridColumns)).toEqual([1, 2, 2, 3, 3, 4, 4, 5, 5]);
    expect([0, 1, 3, 6, 8, 12].map(gridBand)).toEqual(['0', '1', '2-4', '5-6', '7-8', '9-13']);
  });
});
