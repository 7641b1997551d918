/**
 * What /talk's device status report (issue 60, DeviceStatusReporter.tsx) reads from other parts of the page: the
 * screen wake lock (useWakeLock.ts), the last position shared (usePositionSharing.ts) and the push switch
 * (pushSubscription.ts). Each part notes its change here; the reporter hears `DEVICE_CHANGED` and reports again.
 */

export const DEVICE_CHANGED = 'talkgroup:device-changed';

let lastPosition: { accuracy: number | null; at: string } | null = null;
let wakeLockHeld = false;

export function deviceChanged(): void {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(DEVICE_CHANGED));
}

export function noteWakeLock(held: boolean): void {
  if (held === wakeLockHeld) return;
  wakeLockHeld = held;
  deviceChanged();
}

/** A position was shared (its accuracy in metres, if the browser gave one). */
export function notePosition(accuracy: number | undefined): void {
  lastPosition = { accuracy: accuracy ?? null, at: new Date().toISOString() };
  deviceChanged();
}

export function deviceSignals() {
  return { lastPosition, wakeLockHeld };
}
