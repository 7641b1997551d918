/**
 * Short tones of a radio net: two falling notes when the voice link is lost, two rising ones when it is
 * back (what Zello and Mumble users ask for); a talk-permit beep when the floor is granted, a busy tone when
 * someone else holds it, and a falling pair when it is taken back. Played through Web Audio, so no file to
 * load; silent where the browser has no AudioContext or has not allowed sound yet.
 */
let context: AudioContext | null = null;

export type LinkTone = 'lost' | 'back' | 'permit' | 'busy' | 'revoked';

const NOTES: Record<LinkTone, number[]> = {
  lost: [660, 440],
  back: [440, 660],
  permit: [880],
  busy: [400, 0, 400, 0, 400],
  revoked: [880, 440],
};
const NOTE_S = 0.12;

export function playLinkTone(tone: LinkTone): void {
  try {
    context ??= new AudioContext();
    const start = context.currentTime + 0.02;
    NOTES[tone].forEach((frequency, index) => {
      if (!context || frequency === 0) return;
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.frequency.value = frequency;
      const at = start + index * NOTE_S;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + NOTE_S - 0.01);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(at);
      oscillator.stop(at + NOTE_S);
    });
  } catch {
    // No Web Audio here: the banner still says it.
  }
}
