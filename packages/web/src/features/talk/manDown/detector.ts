/**
 * Man-down detection (issue 60), fed with the phone's `devicemotion` samples (acceleration including gravity,
 * m/s², and the sample's time in ms). Pure: no timers, no DOM; time is the samples' own.
 *
 * A fall: free fall (the magnitude under 0.3 g) for at least 200 ms, then within 1 s an impact over 2.5 g,
 * then the phone lies still for `stillSeconds`. The phone may bounce for up to 2 s after the impact; a movement
 * after that means its wearer is moving: no fall.
 * No movement: nothing moved for `noMotionMinutes` (0: off); it fires again after as many minutes more.
 * Still: every sample within 0.15 g of 1 g and within 0.15 g (as a vector) of the first sample of the still
 * stretch, so that a slow turn of the phone counts as movement too.
 */
export interface MotionSample {
  x: number;
  y: number;
  z: number;
  /** Milliseconds, from any origin, increasing. */
  t: number;
}

export type ManDownEvent = 'fall' | 'no_motion';

export interface ManDownOptions {
  stillSeconds: number;
  /** 0: no-motion detection off. */
  noMotionMinutes: number;
}

export const STANDARD_GRAVITY = 9.80665;
export const FREE_FALL_G = 0.3;
export const FREE_FALL_MIN_MS = 200;
export const IMPACT_G = 2.5;
/** The impact must come this soon after the free fall ends. */
export const IMPACT_WINDOW_MS = 1000;
/** After the impact the phone may bounce or slide this long before it must lie still. */
export const SETTLE_MS = 2000;
/** How far from 1 g, and from the still stretch's first sample, a sample may be and still count as still. */
export const STILL_TOLERANCE_G = 0.15;

type FallState =
  | { kind: 'watching'; freeFallSince: number | null }
  | { kind: 'fell'; endedAt: number }
  | { kind: 'impact'; at: number; stillSince: number; reference: MotionSample };

function magnitudeG({ x, y, z }: MotionSample): number {
  return Math.hypot(x, y, z) / STANDARD_GRAVITY;
}

function isStill(sample: MotionSample, reference: MotionSample): boolean {
  const distance = Math.hypot(sample.x - reference.x, sample.y - reference.y, sample.z - reference.z);
  return Math.abs(magnitudeG(sample) - 1) <= STILL_TOLERANCE_G && distance / STANDARD_GRAVITY <= STILL_TOLERANCE_G;
}

export interface ManDownDetector {
  /** One sample; returns what it completes, if anything. */
  push(sample: MotionSample): ManDownEvent | null;
  /** Forget everything seen (after a countdown, cancelled or not). */
  reset(): void;
}

export function createManDownDetector(options: ManDownOptions): ManDownDetector {
  let fall: FallState = { kind: 'watching', freeFallSince: null };
  let lastMovement: MotionSample | null = null;

  const watchFall = (sample: MotionSample): ManDownEvent | null => {
    const g = magnitudeG(sample);
    if (fall.kind === 'watching') {
      if (g < FREE_FALL_G) {
        fall = { kind: 'watching', freeFallSince: fall.freeFallSince ?? sample.t };
        return null;
      }
      if (fall.freeFallSince === null || sample.t - fall.freeFallSince < FREE_FALL_MIN_MS) {
        fall = { kind: 'watching', freeFallSince: null };
        return null;
      }
      // The free fall just ended: this very sample may be the impact.
      fall = { kind: 'fell', endedAt: sample.t };
    }
    if (fall.kind === 'fell') {
      if (g > IMPACT_G) {
        fall = { kind: 'impact', at: sample.t, stillSince: sample.t, reference: sample };
      } else if (g < FREE_FALL_G || sample.t - fall.endedAt > IMPACT_WINDOW_MS) {
        fall = { kind: 'watching', freeFallSince: g < FREE_FALL_G ? sample.t : null };
      }
      return null;
    }
    if (!isStill(sample, fall.reference)) {
      if (sample.t - fall.at > SETTLE_MS) fall = { kind: 'watching', freeFallSince: null };
      else fall = { ...fall, stillSince: sample.t, reference: sample };
      return null;
    }
    if (sample.t - fall.stillSince >= options.stillSeconds * 1000) {
      fall = { kind: 'watching', freeFallSince: null };
      return 'fall';
    }
    return null;
  };

  const watchMotion = (sample: MotionSample): ManDownEvent | null => {
    if (options.noMotionMinutes <= 0) return null;
    if (lastMovement === null || !isStill(sample, lastMovement)) {
      lastMovement = sample;
      return null;
    }
    if (sample.t - lastMovement.t >= options.noMotionMinutes * 60_000) {
      // Fires again only after as long again without movement.
      lastMovement = sample;
      return 'no_motion';
    }
    return null;
  };

  return {
    push(sample) {
      return watchFall(sample) ?? watchMotion(sample);
    },
    reset() {
      fall = { kind: 'watching', freeFallSince: null };
      lastMovement = null;
    },
  };
}
