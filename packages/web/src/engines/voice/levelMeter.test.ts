/**
 * The latency bench's onset detector: where the last sound after a quiet stretch begins; and the level of the
 * loudest stretch, which the browser tests compare voices with.
 */
import { describe, expect, it } from 'vitest';
import { lastOnset, loudestStretch, onsetPeakOf } from './levelMeter.ts';

const RATE = 48_000;

/** Silence, then a 1 kHz tone from `startAt` (samples) at a third of full scale. */
function toneFrom(startAt: number, length = RATE / 2): Float32Array {
  const samples = new Float32Array(length);
  for (let i = startAt; i < length; i += 1)
    samples[i] = 0.33 * Math.sin((2 * Math.PI * 1000 * (i - startAt)) / RATE + 0.3);
  return samples;
}

describe('lastOnset', () => {
  it('finds the first loud sample of a tone after silence, not one after a zero crossing', () => {
    expect(lastOnset(toneFrom(10_000), 0.05, RATE)).toBe(10_000);
  });

  it('takes the last sound when an earlier one is still in the window', () => {
    const samples = toneFrom(20_000);
    for (let i = 1_000; i < 5_000; i += 1) samples[i] = 0.3;
    expect(lastOnset(samples, 0.05, RATE)).toBe(20_000);
  });

  it('finds nothing when the sound began before the window', () => {
    expect(lastOnset(toneFrom(0), 0.05, RATE)).toBeNull();
    expect(lastOnset(new Float32Array(1000), 0.05, RATE)).toBeNull();
  });
});

describe('loudestStretch', () => {
  const STRETCH = RATE / 20;

  it('reads a steady tone at its peak', () => {
    expect(loudestStretch(toneFrom(0), STRETCH)).toBeCloseTo(0.33, 2);
  });

  it('hardly moves for a few loud milliseconds, where the peak does', () => {
    const samples = toneFrom(0);
    for (let i = 10_000; i < 10_048; i += 1) samples[i] *= 1.5;
    expect(Math.max(...samples.map(Math.abs))).toBeGreaterThan(0.45);
    expect(loudestStretch(samples, STRETCH)).toBeLessThan(0.35);
  });

  it('reads a tenth of a second three times as loud', () => {
    const samples = toneFrom(0);
    for (let i = 9_600; i < 14_400; i += 1) samples[i] *= 3;
    expect(loudestStretch(samples, STRETCH)).toBeCloseTo(0.99, 1);
  });
});

describe('onsetPeakOf', () => {
  it("reads the peak of a sound's first 200 ms: a loud start counts, what comes after does not", () => {
    const samples = toneFrom(4_800);
    for (let i = 4_800; i < 4_800 + 2_400; i += 1) samples[i] *= 3;
    for (let i = 4_800 + 9_600 + 100; i < 4_800 + 9_700; i += 1) samples[i] = 0.9;
    expect(onsetPeakOf(samples, 0.05, RATE, 0.2)).toBeCloseTo(0.99, 2);
    expect(onsetPeakOf(toneFrom(4_800), 0.05, RATE, 0.2)).toBeCloseTo(0.33, 2);
  });

  it('gives nothing until 200 ms of the sound are in the window, nor without an onset', () => {
    expect(onsetPeakOf(toneFrom(RATE / 2 - 4_800), 0.05, RATE, 0.2)).toBeNull();
    expect(onsetPeakOf(toneFrom(0), 0.05, RATE, 0.2)).toBeNull();
  });
});
