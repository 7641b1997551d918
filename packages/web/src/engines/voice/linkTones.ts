/**
 * Short tones of a radio net: two falling notes when the voice link is lost, two rising ones when it is
 * back (what Zello and Mumble users ask for); a talk-permit beep when the floor is granted, a busy tone when
 * someone else holds it, and a falling pair when it is taken back. Issue 59: a short double note when a press
 * waits in the floor queue (neither the permit's one high beep nor the busy's three low ones), and a falling
 * triple when a higher priority interrupts the talker. Played through Web Audio, so no file to load; silent
 * where the browser has no AudioContext or has not allowed sound yet.
 */
import { playNotes } from '../../components/tones.ts';

export type LinkTone = 'lost' | 'back' | 'permit' | 'busy' | 'revoked' | 'queued' | 'preempted';

const NOTES: Record<LinkTone, number[]> = {
  lost: [660, 440],
  back: [440, 660],
  permit: [880],
  busy: [400, 0, 400, 0, 400],
  revoked: [880, 440],
  queued: [587, 0, 587],
  preempted: [988, 740, 494],
};
const NOTE_S = 0.12;

export function playLinkTone(tone: LinkTone): void {
  playNotes(NOTES[tone], { noteSeconds: NOTE_S, level: 0.2 });
}
