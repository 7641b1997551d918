/**
 * Short tones for the state of the room's link (what Zello and Mumble users ask for): two falling notes
 * when the voice link is lost, two rising ones when it is back. Played through Web Audio, so no file to
 * load; silent where the browser has no AudioContext or has not allowed sound yet.
 */
let context: AudioContext | null = null;

export type LinkTone = 'lost' | 'back';

const NOTES: Record<LinkTone, number[]> = { lost: [660, 440], back: [440, 660] };
const NOTE_S = 0.12;

export function playLinkTone(tone: LinkTone): void {
  try {
    context ??= new AudioContext();
    const start = context.currentTime + 0.02;
    NOTES[tone].forEach((frequency, index) => {
      if (!context) return;
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
