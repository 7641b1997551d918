/**
 * The SOS alarm: a loud two-tone siren repeated every second until it is stopped (an administrator takes the
 * alert or silences it). Web Audio, so no file to load; silent where the browser has no AudioContext.
 */
import { playNotes } from '../../components/tones.ts';

let timer: ReturnType<typeof setInterval> | undefined;

function siren(): void {
  playNotes([988, 740, 988, 740], { noteSeconds: 0.18, level: 0.25, wave: 'square' });
}

export function startAlarm(): void {
  if (timer) return;
  siren();
  timer = setInterval(siren, 1500);
}

export function stopAlarm(): void {
  clearInterval(timer);
  timer = undefined;
}
