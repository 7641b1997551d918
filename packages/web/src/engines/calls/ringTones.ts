/**
 * The tones of a private call, made with Web Audio (no file to load): the callee's ring and the caller's
 * ring-back, both the usual dual tone (440 + 480 Hz) in bursts, until stopped.
 */
import { toneContext } from '../../components/tones.ts';

const PATTERNS = {
  /** Two short bursts, then a pause: hard to miss. */
  ring: { bursts: [0.4, 0.4], gap: 0.2, every: 2.5, level: 0.25 },
  /** One long burst every few seconds, quieter: the line is ringing at the other end. */
  ringback: { bursts: [1.5], gap: 0, every: 4, level: 0.12 },
};

function playBurst(ctx: AudioContext, start: number, seconds: number, level: number): void {
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0, start);
  gain.gain.linearRampToValueAtTime(level, start + 0.02);
  gain.gain.setValueAtTime(level, start + seconds - 0.03);
  gain.gain.linearRampToValueAtTime(0, start + seconds);
  gain.connect(ctx.destination);
  for (const frequency of [440, 480]) {
    const oscillator = ctx.createOscillator();
    oscillator.frequency.value = frequency;
    oscillator.connect(gain);
    oscillator.start(start);
    oscillator.stop(start + seconds);
  }
}

/** Starts a tone; returns the function that stops it. */
export function startTone(kind: keyof typeof PATTERNS): () => void {
  const ctx = toneContext();
  if (!ctx) return () => {};
  const pattern = PATTERNS[kind];
  const play = () => {
    let at = ctx.currentTime + 0.05;
    for (const seconds of pattern.bursts) {
      playBurst(ctx, at, seconds, pattern.level);
      at += seconds + pattern.gap;
    }
  };
  play();
  const timer = setInterval(play, pattern.every * 1000);
  return () => clearInterval(timer);
}
