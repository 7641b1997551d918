/**
 * The received voices of the channels the member is busy for (issue 34: their transmissions then go to the
 * missed list instead of playing), muted at once whichever transport plays them. A private call or another
 * channel's room plays on. An element that plays through an output stays muted anyway (the output is heard).
 */
const mutedRooms = new Set<string>();
const playing = new Map<HTMLAudioElement, { viaOutput: boolean; room: string }>();

const apply = (element: HTMLAudioElement, viaOutput: boolean, room: string) => {
  element.muted = viaOutput || mutedRooms.has(room);
};

/** An element that plays the received voice of this room (by rtcSession) from now on. */
export function playsIncoming(element: HTMLAudioElement, viaOutput: boolean, room: string): void {
  playing.set(element, { viaOutput, room });
  apply(element, viaOutput, room);
}

/** The element no longer plays received voice. */
export function stopsIncoming(element: HTMLAudioElement): void {
  playing.delete(element);
}

/** Mutes (or plays again) what this room's pages receive. */
export function setIncomingMuted(room: string, muted: boolean): void {
  if (muted) mutedRooms.add(room);
  else mutedRooms.delete(room);
  for (const [element, { viaOutput, room: of }] of playing) apply(element, viaOutput, of);
}
