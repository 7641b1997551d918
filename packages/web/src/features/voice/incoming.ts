/**
 * The page's received voices, muted at once when the member is busy (issue 34: transmissions then go to the
 * missed list instead of playing), whichever transport plays them. An element that plays through an output
 * stays muted anyway (the output is what is heard).
 */
let busy = false;
const playing = new Map<HTMLAudioElement, boolean>();

/** An element that plays received voice from now on (`viaOutput`: an AudioOutput is what is heard). */
export function playsIncoming(element: HTMLAudioElement, viaOutput: boolean): void {
  playing.set(element, viaOutput);
  element.muted = viaOutput || busy;
}

/** The element no longer plays received voice. */
export function stopsIncoming(element: HTMLAudioElement): void {
  playing.delete(element);
}

export function setIncomingMuted(on: boolean): void {
  busy = on;
  for (const [element, viaOutput] of playing) element.muted = viaOutput || busy;
}
