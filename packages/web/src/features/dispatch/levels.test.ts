/** The level a channel plays at on the dispatch console (Dimetra's selected and unselected speakers). */
import { describe, expect, it } from 'vitest';
import { levelOf } from './useDispatchDesk.ts';

const tile = (volume: number, muted = false) => ({ channelId: 1, volume, muted });

describe('a tile level', () => {
  it('is its volume when selected, and its volume times the unselected level otherwise', () => {
    expect(levelOf(tile(100), true, 40, false)).toBe(1);
    expect(levelOf(tile(100), false, 40, false)).toBeCloseTo(0.4);
    expect(levelOf(tile(50), false, 40, false)).toBeCloseTo(0.2);
    expect(levelOf(tile(80), true, 0, false)).toBeCloseTo(0.8);
  });

  it('is silent when muted, and full while an SOS of the channel is open, muted or not', () => {
    expect(levelOf(tile(100, true), true, 40, false)).toBe(0);
    expect(levelOf(tile(10, true), false, 40, true)).toBe(1);
  });
});
