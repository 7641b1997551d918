/**
 * The queue's sounds (Web Audio, nothing to load; silent where the browser allows none): a soft two-note chime
 * for a new request, a brighter three-note call for one that waited longer than DISPATCH_REMIND_SECONDS. Both
 * stay below the SOS siren, which must remain the loudest thing on the desk.
 */
import { playNotes } from '../../../components/tones.ts';

export function newRequestChime(): void {
  playNotes([587, 784], { noteSeconds: 0.14, level: 0.12, attackSeconds: 0.02 });
}

export function reminderCall(): void {
  playNotes([988, 0, 988, 1319], { noteSeconds: 0.12, level: 0.22, wave: 'triangle' });
}
