/**
 * Plays the channel's recorded transmissions, one at a time, in order: a single player for the page, so that
 * "play missed" and a play button never talk over each other, and a press to talk stops it at once.
 */
import type { VoiceMessage } from '@talkgroup/protocol';

let audio: HTMLAudioElement | null = null;
let queue: VoiceMessage[] = [];
let current: VoiceMessage | null = null;
let onStarted: ((item: VoiceMessage) => void) | undefined;
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

function playNext(): void {
  const item = queue.shift();
  if (audio) {
    audio.onended = null;
    audio.onerror = null;
    audio.pause();
  }
  audio = null;
  current = item ?? null;
  if (item) {
    const player = new Audio(item.url);
    audio = player;
    player.onended = () => playNext();
    player.onerror = () => playNext();
    onStarted?.(item);
    void player.play().catch(() => {
      if (audio === player) stopVoicePlayback();
    });
  }
  changed();
}

/** Plays these transmissions in order (oldest first), after stopping whatever plays. */
export function playVoiceMessages(items: readonly VoiceMessage[], started?: (item: VoiceMessage) => void): void {
  stopVoicePlayback();
  queue = [...items].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id);
  onStarted = started;
  playNext();
}

export function stopVoicePlayback(): void {
  queue = [];
  onStarted = undefined;
  if (!audio && !current) return;
  if (audio) {
    audio.onended = null;
    audio.onerror = null;
    audio.pause();
    audio.removeAttribute('src');
  }
  audio = null;
  current = null;
  changed();
}

export function playingVoiceId(): number | null {
  return current?.id ?? null;
}

export function subscribeVoicePlayback(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
