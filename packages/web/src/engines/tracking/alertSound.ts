/**
 * Zone alerts may chime (off by default: a console full of members walking about must not ring all day).
 * The choice is kept on this device. The chime is Web Audio: nothing to load, silent where there is none.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { playNotes } from '../../components/tones.ts';

const SOUND_KEY = 'talkgroup.geofenceAlertSound';
const listeners = new Set<() => void>();

function soundOn(): boolean {
  try {
    return localStorage.getItem(SOUND_KEY) === 'on';
  } catch {
    return false;
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** `[on, setOn]`: whether zone alerts chime here. */
export function useAlertSound(): [boolean, (on: boolean) => void] {
  const on = useSyncExternalStore(subscribe, soundOn, () => false);
  const setOn = useCallback((next: boolean) => {
    try {
      if (next) localStorage.setItem(SOUND_KEY, 'on');
      else localStorage.removeItem(SOUND_KEY);
    } catch {
      // storage disabled: the choice lasts until the page reloads
    }
    for (const listener of listeners) listener();
  }, []);
  return [on, setOn];
}

/** Two soft rising notes: unlike the SOS siren, it tells without alarming. */
export function chime(kind: 'enter' | 'exit'): void {
  playNotes(kind === 'enter' ? [660, 880] : [880, 660], { noteSeconds: 0.16, level: 0.2, attackSeconds: 0.02 });
}
