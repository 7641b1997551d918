/**
 * Short tones played with Web Audio (no file to load), for the console's signals: a radio net's link and floor
 * tones, the SOS siren, a zone alert's chime, a private call's ring. One AudioContext for the page; silent where
 * the browser has none or has not allowed sound yet (the screen still says what happened).
 */
let context: AudioContext | null = null;

/** The page's AudioContext, resumed if the browser suspended it; null without Web Audio. */
export function toneContext(): AudioContext | null {
  try {
    context ??= new AudioContext();
    if (context.state === 'suspended') void context.resume().catch(() => {});
    return context;
  } catch {
    return null;
  }
}

export interface NoteShape {
  /** Each note's length, one after the other (a frequency of 0 is a rest). */
  noteSeconds: number;
  /** Peak gain (0 to 1). */
  level: number;
  wave?: OscillatorType;
  /** Time to reach the peak. */
  attackSeconds?: number;
}

/** Plays these notes in a row, each rising to `level` and fading out before the next. */
export function playNotes(frequencies: number[], shape: NoteShape): void {
  const ctx = toneContext();
  if (!ctx) return;
  const { noteSeconds, level, wave = 'sine', attackSeconds = 0.01 } = shape;
  const start = ctx.currentTime + 0.02;
  frequencies.forEach((frequency, index) => {
    if (frequency === 0) return;
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    oscillator.type = wave;
    oscillator.frequency.value = frequency;
    const at = start + index * noteSeconds;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(level, at + attackSeconds);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + noteSeconds - 0.01);
    oscillator.connect(gain).connect(ctx.destination);
    oscillator.start(at);
    oscillator.stop(at + noteSeconds);
  });
}
