/**
 * The press path of push-to-talk, in the order that keeps press-to-sound short (bench/ptt-latency): the
 * floor request leaves before anything else is done for the press, the recorder is running before the
 * answer is read, and the track is on before the permit beep is played.
 */
import { describe, expect, it, vi } from 'vitest';
import type { TransmissionRecorder } from './recorder.ts';
import { TalkControl } from './talkControl.ts';
import type { RoomSocket } from './voiceRoomState.ts';

function pressPath(answer: { granted: boolean; holder?: { userId: number; name: string } }) {
  const steps: string[] = [];
  const track = {
    get enabled() {
      return false;
    },
    set enabled(on: boolean) {
      steps.push(`track ${on ? 'on' : 'off'}`);
    },
  } as MediaStreamTrack;
  const socket = {
    connected: true,
    emit(event: string, _payload: unknown, ack?: (answer: unknown) => void) {
      steps.push(event);
      // The server answers at once: the answer must still be read after the press's own work.
      if (event === 'floor_request') ack?.(answer);
    },
  } as unknown as RoomSocket;
  const recorder = {
    begin: () => steps.push('recorder begins'),
    keep: () => steps.push('recorder keeps'),
    end: () => steps.push('recorder ends'),
    discard: () => steps.push('recorder discards'),
  } as unknown as TransmissionRecorder;
  const ptt = new TalkControl({
    socket,
    name: 'Alpha',
    track: () => track,
    talking: (on) => {
      track.enabled = on;
    },
    tone: (tone) => steps.push(`${tone} tone`),
    pressed: () => steps.push('playback resumes'),
    micChanged: () => steps.push('mic reported'),
    changed: () => {},
    isOpen: () => true,
    recorder,
  });
  return { ptt, steps };
}

describe('the press path', () => {
  it('asks for the floor first, records before the answer is read, and turns the track on before the beep', async () => {
    const { ptt, steps } = pressPath({ granted: true });
    ptt.press(true);
    await vi.waitFor(() => expect(ptt.micOn).toBe(true));
    expect(steps).toEqual([
      'floor_request',
      'playback resumes',
      'recorder begins',
      'track on',
      'recorder keeps',
      'mic reported',
      'permit tone',
    ]);
  });

  it('keeps the track off when the floor is refused', async () => {
    const { ptt, steps } = pressPath({ granted: false, holder: { userId: 2, name: 'Noe' } });
    ptt.press(true);
    await vi.waitFor(() => expect(ptt.floorHolder).toBe('Noe'));
    expect(steps).toEqual(['floor_request', 'playback resumes', 'recorder begins', 'recorder discards', 'busy tone']);
  });
});
