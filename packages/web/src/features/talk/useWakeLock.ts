/**
 * Keeps the screen on while a channel is shown, when the member asks for it (Screen Wake Lock API). The
 * browser drops the lock whenever the page is hidden; it is taken again when the page comes back.
 */
import { useEffect, useState } from 'react';
import { noteWakeLock } from './deviceSignals.ts';

const WAKE_LOCK_KEY = 'talkgroup.keepAwake';

export function useWakeLock() {
  const supported = typeof navigator !== 'undefined' && 'wakeLock' in navigator;
  const [wanted, setWanted] = useState(() => {
    try {
      return supported && localStorage.getItem(WAKE_LOCK_KEY) === 'on';
    } catch {
      return false;
    }
  });
  const [held, setHeld] = useState(false);
  // Issue 60: the device status says whether the screen is kept on.
  useEffect(() => noteWakeLock(held), [held]);

  useEffect(() => {
    if (!wanted || !supported) return;
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
        setHeld(false); // refused (battery saver, no user gesture yet): the switch stays on and retries on return
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
  }, [wanted, supported]);

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
