import { describe, expect, it } from 'vitest';
import { createManDownDetector, type ManDownEvent, type MotionSample, STANDARD_GRAVITY } from './detector.ts';

const STEP_MS = 20;

/** A stretch of samples `ms` long, every 20 ms, of a phone under `g` along z (x and y as given, in g). */
function stretch(from: number, ms: number, g: number, sideways = { x: 0, y: 0 }): MotionSample[] {
  const samples: MotionSample[] = [];
  for (let t = from; t < from + ms; t += STEP_MS) {
    samples.push({ x: sideways.x * STANDARD_GRAVITY, y: sideways.y * STANDARD_GRAVITY, z: g * STANDARD_GRAVITY, t });
  }
  return samples;
}

/** Walking: the magnitude swinging between 0.6 g and 1.5 g. */
function walking(from: number, ms: number): MotionSample[] {
  return stretch(from, ms, 1).map((sample, index) => ({ ...sample, z: (index % 2 ? 0.6 : 1.5) * STANDARD_GRAVITY }));
}

function run(options: { stillSeconds: number; noMotionMinutes: number }, ...parts: MotionSample[][]) {
  const detector = createManDownDetector(options);
  const events: Array<{ event: ManDownEvent; t: number }> = [];
  for (const sample of parts.flat()) {
    const event = detector.push(sample);
    if (event) events.push({ event, t: sample.t });
  }
  return events;
}

const FALL_ONLY = { stillSeconds: 10, noMotionMinutes: 0 };

describe('man-down detector', () => {
  it('detects a fall: free fall for 300 ms, an impact of 3 g, then 10 s still', () => {
    const events = run(
      FALL_ONLY,
      stretch(0, 1000, 1),
      stretch(1000, 300, 0.1),
      stretch(1300, 40, 3),
      stretch(1340, 11_000, 1, { x: 0.05, y: 0 }),
    );
    expect(events).toHaveLength(1);
    expect(events[0]?.event).toBe('fall');
    // Still from the first sample after the impact, for stillSeconds.
    expect(events[0]?.t).toBeGreaterThanOrEqual(1340 + 10_000);
    expect(events[0]?.t).toBeLessThan(1340 + 10_000 + 100);
  });

  it('detects a fall whose phone bounced for a second after the impact', () => {
    const events = run(
      FALL_ONLY,
      stretch(0, 300, 0.05),
      stretch(300, 20, 4),
      walking(320, 1000),
      stretch(1320, 10_100, 1),
    );
    expect(events.map(({ event }) => event)).toEqual(['fall']);
  });

  it('raises nothing for a drop without an impact', () => {
    const events = run(FALL_ONLY, stretch(0, 400, 0.1), stretch(400, 20_000, 1));
    expect(events).toEqual([]);
  });

  it('raises nothing for an impact without a free fall before it', () => {
    const events = run(FALL_ONLY, stretch(0, 1000, 1), stretch(1000, 40, 3.5), stretch(1040, 20_000, 1));
    expect(events).toEqual([]);
  });

  it('raises nothing for a free fall shorter than 200 ms before the impact', () => {
    const events = run(FALL_ONLY, stretch(0, 120, 0.1), stretch(120, 40, 3), stretch(160, 20_000, 1));
    expect(events).toEqual([]);
  });

  it('raises nothing for an impact more than a second after the free fall', () => {
    const events = run(
      FALL_ONLY,
      stretch(0, 300, 0.1),
      stretch(300, 1500, 1),
      stretch(1800, 40, 3),
      stretch(1840, 20_000, 1),
    );
    expect(events).toEqual([]);
  });

  it('raises nothing for a fall followed by movement: its wearer got up', () => {
    const events = run(
      FALL_ONLY,
      stretch(0, 300, 0.1),
      stretch(300, 40, 3),
      stretch(340, 4000, 1),
      walking(4340, 3000),
      stretch(7340, 20_000, 1),
    );
    expect(events).toEqual([]);
  });

  it('counts a slow turn of the phone as movement', () => {
    const turned = stretch(4340, 11_000, 0, { x: 1, y: 0 });
    const events = run(FALL_ONLY, stretch(0, 300, 0.1), stretch(300, 40, 3), stretch(340, 4000, 1), turned);
    expect(events).toEqual([]);
  });

  it('raises no_motion after noMotionMinutes without movement, and again after as long again', () => {
    const options = { stillSeconds: 10, noMotionMinutes: 2 };
    const events = run(options, walking(0, 5000), stretch(5000, 5 * 60_000, 1, { x: 0.02, y: 0.03 }));
    expect(events.map(({ event }) => event)).toEqual(['no_motion', 'no_motion']);
    expect(events[0]?.t).toBeGreaterThanOrEqual(5000 + 120_000);
    expect(events[0]?.t).toBeLessThan(5000 + 120_000 + 100);
  });

  it('raises no no_motion while the phone moves now and then, nor when it is off', () => {
    const moving = Array.from({ length: 6 }, (_, minute) => [
      ...stretch(minute * 60_000, 59_000, 1),
      ...walking(minute * 60_000 + 59_000, 1000),
    ]);
    expect(run({ stillSeconds: 10, noMotionMinutes: 2 }, ...moving)).toEqual([]);
    expect(run(FALL_ONLY, stretch(0, 10 * 60_000, 1))).toEqual([]);
  });
});
