/**
 * Whether the microphone is processed (echo cancellation, noise suppression, automatic gain). On by default,
 * as people need it; a radio operator with a headset, or a test feeding a tone, may turn it off. Kept per
 * browser.
 */
import { useCallback, useState } from 'react';
import { readRoomStorage, writeRoomStorage } from '../../api/roomStorage.ts';

/** The device's choice, which every voice room of the app follows unless its page passes its own. */
export function storedVoiceProcessing(): boolean {
  return readRoomStorage('voiceProcessing') !== 'off';
}

export function useVoiceProcessing(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(storedVoiceProcessing);
  const change = useCallback((next: boolean) => {
    setOn(next);
    // When the storage refuses, the choice lasts for this page.
    writeRoomStorage({ voiceProcessing: next ? 'on' : 'off' });
  }, []);
  return [on, change];
}
