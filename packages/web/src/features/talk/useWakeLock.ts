/**
 * Keeps the screen on while a channel is shown, when the member asks for it (Screen Wake Lock API). The
 * browser drops the lock whenever the page is hidden; it is taken again when the page comes back.
 * Man-down detection (issue 60) holds one too while it is on (`useScreenWakeLock`).
 */
import { useEffect, useState } from 'react';
import { noteWakeLock } from './deviceSignals.ts';

const WAKE_LOCK_KEY = 'talkgroup.keepAwake';

export const wakeLockSupported = () => typeof navigator !== 'undefined' && 'wakeLock' in navigator;

/** The page's locks held now: the device status says the screen is kept on while any is. */
let heldLocks = 0;
function noteHeld(change: 1 | -1) {
  heldLocks += change;
  noteWakeLock(heldLocks > 0);
}

/** Holds a screen wake lock while `active`, taken again whenever the page comes back; true while held. */
export function useScreenWakeLock(active: boolean): boolean {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (!held) return;
    noteHeld(1);
    return () => noteHeld(-1);
  }, [held]);

  useEffect(() => {
    if (!active || !wakeLockSupported()) return;
    let sentinel: WakeLockSentinel | null = null;
    let stopped = false;
    const acquire = async () => {
      if (document.visibilityState !== 'visible' || (sentinel && !sentinel.released)) return;
      try {
        sentinel = await navigator.wakeLock.request('screen');
        if (stopped) {
          void sentinel.release();
          return;
        }
        setHeld(true);
        sentinel.addEventListener('release', () => setHeld(false));
      } catch {
        setHeld(false); // refused (battery saver, no user gesture yet): still wanted, retried on return
      }
    };
    void acquire();
    document.addEventListener('visibilitychange', acquire);
    return () => {
      stopped = true;
      document.removeEventListener('visibilitychange', acquire);
      void sentinel?.release().catch(() => {});
      setHeld(false);
    };
  }, [active]);
  return held;
}

export function useWakeLock() {
  const supported = wakeLockSupported();
  const [wanted, setWanted] = useState(() => {
    try {
      return supported && localStorage.getItem(WAKE_LOCK_KEY) === 'on';
    } catch {
      return false;
    }
  });
  const held = useScreenWakeLock(wanted);

  const setKeepAwake = (on: boolean) => {
    try {
      if (on) localStorage.setItem(WAKE_LOCK_KEY, 'on');
      else localStorage.removeItem(WAKE_LOCK_KEY);
    } catch {
      // storage disabled: the choice lasts for this page
    }
    setWanted(on);
  };

  return { supported, keepAwake: wanted, held, setKeepAwake };
}
