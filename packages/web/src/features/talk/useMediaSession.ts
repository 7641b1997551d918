/**
 * The Media Session of a channel page: the channel's name and who is talking now (title and artist) on the lock
 * screen and in the system's media controls, which keeps the page's audio focus; and a headset or Bluetooth button, which browsers deliver as
 * play/pause (a media key, or a Media Session action), toggles talking: one press talks, the next stops.
 * A button cannot be held through these APIs, so the toggle is the honest mapping.
 */
import { useEffect, useRef } from 'react';

export function useMediaSession({
  title,
  artist,
  talking,
  onTalk,
}: {
  title: string;
  artist: string;
  talking: boolean;
  onTalk: (on: boolean) => void;
}): void {
  const talkingRef = useRef(talking);
  talkingRef.current = talking;
  const onTalkRef = useRef(onTalk);
  onTalkRef.current = onTalk;

  useEffect(() => {
    const session = typeof navigator !== 'undefined' ? navigator.mediaSession : undefined;
    const toggle = () => onTalkRef.current(!talkingRef.current);
    const onKey = (event: KeyboardEvent) => {
      // A media key chosen as the talk key (useTalkKey) is a hold, handled there first.
      if (event.defaultPrevented) return;
      if (event.key !== 'MediaPlayPause' && event.key !== 'MediaPlay' && event.key !== 'MediaPause') return;
      event.preventDefault();
      if (event.key === 'MediaPause') onTalkRef.current(false);
      else if (event.key === 'MediaPlay') onTalkRef.current(true);
      else toggle();
    };
    window.addEventListener('keydown', onKey);
    if (!session) return () => window.removeEventListener('keydown', onKey);
    const actions: Array<[MediaSessionAction, MediaSessionActionHandler]> = [
      ['play', () => onTalkRef.current(true)],
      ['pause', () => onTalkRef.current(false)],
      ['stop', () => onTalkRef.current(false)],
    ];
    for (const [action, handler] of actions) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // an action this browser does not know
      }
    }
    return () => {
      window.removeEventListener('keydown', onKey);
      for (const [action] of actions) {
        try {
          session.setActionHandler(action, null);
        } catch {}
      }
      session.metadata = null;
      session.playbackState = 'none';
    };
  }, []);

  // What the lock screen shows follows the channel and who talks, without handing the actions out again.
  useEffect(() => {
    const session = typeof navigator !== 'undefined' ? navigator.mediaSession : undefined;
    if (!session) return;
    try {
      session.metadata = new MediaMetadata({
        title,
        artist,
        artwork: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
      });
    } catch {
      // MediaMetadata missing: the actions still work
    }
  }, [title, artist]);

  useEffect(() => {
    if (typeof navigator !== 'undefined' && navigator.mediaSession)
      navigator.mediaSession.playbackState = talking ? 'playing' : 'paused';
  }, [talking]);
}
