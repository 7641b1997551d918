/**
 * The page's one player of recorded transmissions: "play missed" plays them oldest first, one after the
 * other; stopping (a press to talk) ends the whole queue. HTMLAudioElement is a stand-in here.
 */
import type { VoiceMessage } from '@talkgroup/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { playingVoiceId, playVoiceMessages, stopVoicePlayback, subscribeVoicePlayback } from './voicePlayback.ts';

class FakeAudio {
  static all: FakeAudio[] = [];
  paused = true;
  onended: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly src: string) {
    FakeAudio.all.push(this);
  }
  play() {
    this.paused = false;
    return Promise.resolve();
  }
  pause() {
    this.paused = true;
  }
  removeAttribute() {}
}

const item = (id: number, createdAt: string): VoiceMessage => ({
  id,
  channelId: 1,
  userId: 2,
  display_name: 'Mia',
  createdAt,
  durationMs: 1000,
  url: `/files/voice/${id}.webm`,
});

describe('voice playback', () => {
  beforeEach(() => {
    FakeAudio.all = [];
    vi.stubGlobal('Audio', FakeAudio);
  });
  afterEach(() => {
    stopVoicePlayback();
    vi.unstubAllGlobals();
  });

  it('plays the missed transmissions oldest first, one after the other', () => {
    const started: number[] = [];
    playVoiceMessages([item(3, '2026-01-01T10:02:00Z'), item(1, '2026-01-01T10:00:00Z')], (v) => started.push(v.id));
    expect(playingVoiceId()).toBe(1);
    expect(FakeAudio.all.map((a) => a.src)).toEqual(['/files/voice/1.webm']);
    FakeAudio.all[0].onended?.();
    expect(playingVoiceId()).toBe(3);
    FakeAudio.all[1].onended?.();
    expect(playingVoiceId()).toBeNull();
    expect(started).toEqual([1, 3]);
  });

  it('stops the whole queue at once (a press to talk) and says so to its listeners', () => {
    const changes = vi.fn();
    const unsubscribe = subscribeVoicePlayback(changes);
    playVoiceMessages([item(1, '2026-01-01T10:00:00Z'), item(2, '2026-01-01T10:01:00Z')]);
    const first = FakeAudio.all[0];
    stopVoicePlayback();
    expect(first.paused).toBe(true);
    expect(playingVoiceId()).toBeNull();
    first.onended?.();
    expect(FakeAudio.all).toHaveLength(1);
    expect(changes).toHaveBeenCalled();
    unsubscribe();
  });
});
