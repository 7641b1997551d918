/**
 * Whether the microphone is processed (echo cancellation, noise suppression, automatic gain). On by default,
 * as people need it; a radio operator with a headset, or a test feeding a tone, may turn it off. Kept per
 * browser.
 */
import { useCallback, useState } from 'react';

const KEY = 'talkgroup.voiceProcessing';

function read(): boolean {
  try {
    return localStorage.getItem(KEY) !== 'off';
  } catch {
    return true;
  }
}

export function useVoiceProcessing(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(read);
  const change = useCallback((next: boolean) => {
    setOn(next);
    try {
      localStorage.setItem(KEY, next ? 'on' : 'off');
    } catch {
      // Not kept: the choice lasts for this page.
    }
  }, []);
  return [on, change];
}
