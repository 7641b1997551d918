/**
 * The press path of push-to-talk, in the order that keeps press-to-sound short (bench/ptt-latency): the
 * floor request leaves before anything else is done for the press, the recorder is running before the
 * answer is read, and the track is on before the permit beep is played.
 */
import { describe, expect, it, vi } from 'vitest';
import type { TransmissionRecorder } from './recorder.ts';
import { MISSED_TURN_SHOWN_MS, TalkControl } from './talkControl.ts';
import type { RoomSocket } from './voiceRoomState.ts';

type Answer = { granted: boolean; holder?: { userId: number; name: string }; queued?: true; position?: number };

function pressPath(first: Answer, ...later: Answer[]) {
  const answers = [first, ...later];
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
      if (event === 'floor_request') ack?.(answers.length > 1 ? answers.shift() : answers[0]);
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

describe('the floor queue (issue 59)', () => {
  const holder = { userId: 2, name: 'Noe' };

  it('waits in the queue with its tone, stays there when released, and leaves it with Cancel', async () => {
    const { ptt, steps } = pressPath({ granted: false, queued: true, position: 2, holder });
    ptt.press(true);
    await vi.waitFor(() => expect(ptt.wait).toEqual({ kind: 'queued', position: 2, holder: 'Noe' }));
    expect(steps).toContain('queued tone');
    expect(steps).not.toContain('busy tone');
    ptt.press(false);
    expect(ptt.wait).toEqual({ kind: 'queued', position: 2, holder: 'Noe' });
    ptt.queuePosition({ room: 'Alpha', position: 1 });
    ptt.queuePosition({ room: 'Other', position: 5 });
    expect(ptt.wait).toEqual({ kind: 'queued', position: 1, holder: 'Noe' });
    // Taken out of the queue by a dispatcher (or expired): position 0.
    ptt.queuePosition({ room: 'Alpha', position: 0 });
    expect(ptt.wait).toBeNull();
    ptt.queuePosition({ room: 'Alpha', position: 1 });
    ptt.cancelQueue();
    expect(steps.at(-1)).toBe('floor_cancel');
    expect(ptt.wait).toBeNull();
  });

  it('confirms an offer at once while the button is held, with one permit tone', async () => {
    const { ptt, steps } = pressPath(
      { granted: false, queued: true, position: 1, holder },
      { granted: true, holder: undefined },
    );
    ptt.press(true);
    await vi.waitFor(() => expect(ptt.wait?.kind).toBe('queued'));
    ptt.granted({ room: 'Alpha', reason: 'queue' });
    expect(ptt.wait).toEqual({ kind: 'offered', until: expect.any(Number) });
    await vi.waitFor(() => expect(ptt.micOn).toBe(true));
    expect(ptt.wait).toBeNull();
    expect(steps.filter((step) => step === 'floor_request')).toHaveLength(2);
    expect(steps.filter((step) => step === 'permit tone')).toHaveLength(1);
  });

  it("counts an offer to a released button down, then says the turn was missed ('not_taken'), for a while", async () => {
    const { ptt } = pressPath({ granted: false, queued: true, position: 1, holder });
    ptt.press(true);
    await vi.waitFor(() => expect(ptt.wait?.kind).toBe('queued'));
    ptt.press(false);
    vi.useFakeTimers({ now: 1_000_000 });
    try {
      // Its deadline on this device's clock, from the offer's acceptMs (issue 70).
      ptt.granted({ room: 'Alpha', reason: 'queue', acceptMs: 3000 });
      expect(ptt.wait).toEqual({ kind: 'offered', until: 1_003_000 });
      expect(ptt.micOn).toBe(false);
      ptt.revoked({ room: 'Alpha', reason: 'not_taken' });
      expect(ptt.wait).toEqual({ kind: 'missed' });
      vi.advanceTimersByTime(MISSED_TURN_SHOWN_MS - 1);
      expect(ptt.wait).toEqual({ kind: 'missed' });
      vi.advanceTimersByTime(1);
      expect(ptt.wait).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets a new press replace "Turn missed"', async () => {
    const { ptt } = pressPath({ granted: false, queued: true, position: 1, holder }, { granted: true });
    ptt.press(true);
    await vi.waitFor(() => expect(ptt.wait?.kind).toBe('queued'));
    ptt.press(false);
    ptt.granted({ room: 'Alpha', reason: 'queue' });
    ptt.revoked({ room: 'Alpha', reason: 'not_taken' });
    expect(ptt.wait).toEqual({ kind: 'missed' });
    ptt.press(true);
    expect(ptt.wait).toBeNull();
    await vi.waitFor(() => expect(ptt.micOn).toBe(true));
  });

  it('says who interrupted the talker, with the pre-emption tone', async () => {
    const { ptt, steps } = pressPath({ granted: true });
    ptt.press(true);
    await vi.waitFor(() => expect(ptt.micOn).toBe(true));
    ptt.revoked({ room: 'Alpha', reason: 'preempted', by: { name: 'Dora' } });
    expect(ptt.micOn).toBe(false);
    expect(ptt.wait).toEqual({ kind: 'interrupted', by: 'Dora' });
    expect(steps).toContain('preempted tone');
  });
});
