/**
 * Whether man-down detection is on, kept in this browser's storage: the switch on /talk's home page sets it,
 * the watch on every /talk page reads it (a small store, so that both follow at once).
 */
import { useSyncExternalStore } from 'react';

const MAN_DOWN_KEY = 'talkgroup.manDown';
const listeners = new Set<() => void>();

function read(): boolean {
  try {
    return localStorage.getItem(MAN_DOWN_KEY) === 'on';
  } catch {
    return false;
  }
}
let on = read();

export function setManDown(next: boolean): void {
  try {
    if (next) localStorage.setItem(MAN_DOWN_KEY, 'on');
    else localStorage.removeItem(MAN_DOWN_KEY);
  } catch {
    // storage disabled: the choice lasts for this page
  }
  on = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useManDownOn(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => on,
    () => false,
  );
}

/** The motion sensors: none, allowed, or (iOS-like browsers) to be asked for on a tap. */
type MotionPermission = { requestPermission?: () => Promise<'granted' | 'denied'> };

export function motionSupported(): boolean {
  return typeof window !== 'undefined' && 'DeviceMotionEvent' in window;
}

/** Asks for the motion sensors where the browser wants a tap's permission; true when they may be read. */
export async function allowMotion(): Promise<boolean> {
  const ask = (window.DeviceMotionEvent as unknown as MotionPermission).requestPermission;
  if (typeof ask !== 'function') return true;
  try {
    return (await ask.call(window.DeviceMotionEvent)) === 'granted';
  } catch {
    return false;
  }
}
