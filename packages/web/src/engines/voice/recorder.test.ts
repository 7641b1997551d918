/**
 * Push-to-talk records each transmission (issue 15): from the press, kept once the floor is granted,
 * delivered at the release naming its grant (issue 48: the server finds the grant by that id); a refused press keeps nothing; a channel that does not record starts no recorder;
 * a press stops playback; a format the browser refuses to start with gives way to the next (issue 70). MediaRecorder is a stand-in here; e2e/voice-history.spec.ts records for real.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Transmission, TransmissionRecorder } from './recorder.ts';
import { TalkControl } from './talkControl.ts';
import type { RoomSocket } from './voiceRoomState.ts';

class FakeMediaRecorder {
  static started = 0;
  /** The formats whose start throws NotSupportedError (issue 70: a browser may claim a type it cannot record). */
  static failing = new Set<string | undefined>();
  /** The format of each recorder started. */
  static formats: Array<string | undefined> = [];
  state: 'inactive' | 'recording' = 'inactive';
  mimeType: string;
  ondataavailable: ((event: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  static isTypeSupported = (mime: string) => mime.startsWith('audio/webm') || mime.startsWith('audio/ogg');
  constructor(
    _stream: unknown,
    private readonly options: { mimeType?: string } = {},
  ) {
    this.mimeType = options.mimeType ?? 'audio/webm;codecs=opus';
  }
  start() {
    if (FakeMediaRecorder.failing.has(this.options.mimeType))
      throw new DOMException("Failed to execute 'start' on 'MediaRecorder'", 'NotSupportedError');
    FakeMediaRecorder.formats.push(this.options.mimeType);
    FakeMediaRecorder.started += 1;
    this.state = 'recording';
  }
  stop() {
    this.state = 'inactive';
    this.ondataavailable?.({ data: new Blob([new Uint8Array(64)], { type: this.mimeType }) });
    this.onstop?.();
  }
}

function talkControl(granted: boolean, recorder: TransmissionRecorder) {
  const socket = {
    connected: true,
    emit(event: string, _payload: unknown, ack?: (answer: unknown) => void) {
      if (event === 'floor_request')
        ack?.(
          granted
            ? { granted: true, grantId: 'grant-of-press' }
            : { granted: false, holder: { userId: 2, name: 'Noe' } },
        );
    },
  } as unknown as RoomSocket;
  const track = { enabled: false } as MediaStreamTrack;
  return new TalkControl({
    socket,
    name: 'Alpha',
    track: () => track,
    talking: (on) => {
      track.enabled = on;
    },
    tone: () => {},
    pressed: () => {},
    micChanged: () => {},
    changed: () => {},
    isOpen: () => true,
    recorder,
  });
}

describe('recording transmissions', () => {
  let delivered: Transmission[];
  let playbackStops: number;
  let recording: boolean;
  const recorder = () =>
    new TransmissionRecorder({
      target: () => ({ channelId: 7, recording }),
      deliver: (transmission) => delivered.push(transmission),
      pressed: () => {
        playbackStops += 1;
      },
    });

  beforeEach(() => {
    delivered = [];
    playbackStops = 0;
    recording = true;
    FakeMediaRecorder.started = 0;
    FakeMediaRecorder.failing = new Set();
    FakeMediaRecorder.formats = [];
    // The recorder says which format failed; the tests that make them fail need not print it.
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal('MediaRecorder', FakeMediaRecorder);
    vi.stubGlobal(
      'MediaStream',
      class {
        constructor(readonly tracks: unknown[]) {}
      },
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('records from the press and delivers the transmission at the release', async () => {
    const ptt = talkControl(true, recorder());
    ptt.press(true);
    expect(FakeMediaRecorder.started).toBe(1);
    expect(playbackStops).toBe(1);
    await vi.waitFor(() => expect(ptt.micOn).toBe(true));
    ptt.press(false);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ channelId: 7, audio: expect.any(Blob), grantId: 'grant-of-press' });
    expect(delivered[0].durationMs).toBeGreaterThanOrEqual(1);
    expect(Date.parse(delivered[0].startedAt)).toBeLessThanOrEqual(Date.now());
  });

  it('keeps nothing of a refused press', async () => {
    const ptt = talkControl(false, recorder());
    ptt.press(true);
    await vi.waitFor(() => expect(ptt.floorHolder).toBe('Noe'));
    ptt.press(false);
    expect(delivered).toEqual([]);
  });

  it('starts no recorder in a channel that does not record, and still stops playback', async () => {
    recording = false;
    const ptt = talkControl(true, recorder());
    ptt.press(true);
    await vi.waitFor(() => expect(ptt.micOn).toBe(true));
    ptt.press(false);
    expect(FakeMediaRecorder.started).toBe(0);
    expect(playbackStops).toBe(1);
    expect(delivered).toEqual([]);
  });

  it('names the grant the server gave without a press (an emergency) and the grant of an all call', () => {
    const ptt = talkControl(true, recorder());
    ptt.granted({ room: 'Alpha', holdMs: 10_000, grantId: 'grant-of-emergency' });
    ptt.revoked({ room: 'Alpha' });
    ptt.broadcast(true, { alsoIn: [8], grantId: 'grant-of-all-call' });
    ptt.broadcast(false);
    expect(delivered.map(({ grantId, alsoChannelIds }) => ({ grantId, alsoChannelIds }))).toEqual([
      { grantId: 'grant-of-emergency', alsoChannelIds: undefined },
      { grantId: 'grant-of-all-call', alsoChannelIds: [8] },
    ]);
  });

  it('says whether an all call records in its room, so that the page records it in another when not', () => {
    recording = false;
    const quiet = talkControl(true, recorder());
    expect(quiet.broadcast(true, { alsoIn: [8], grantId: 'grant-of-all-call' })).toBe(false);
    expect(quiet.micOn).toBe(true);
    recording = true;
    const lead = talkControl(true, recorder());
    expect(lead.broadcast(true, { alsoIn: [7], grantId: 'grant-of-all-call' })).toBe(true);
    expect(talkControl(true, recorder()).broadcast(true, { records: false })).toBe(false);
    quiet.broadcast(false);
    lead.broadcast(false);
    expect(delivered.map(({ grantId, alsoChannelIds }) => ({ grantId, alsoChannelIds }))).toEqual([
      { grantId: 'grant-of-all-call', alsoChannelIds: [7] },
    ]);
  });

  it('delivers what was said when the link drops during the transmission', async () => {
    const ptt = talkControl(true, recorder());
    ptt.press(true);
    await vi.waitFor(() => expect(ptt.micOn).toBe(true));
    ptt.lost();
    expect(delivered).toHaveLength(1);
  });

  it('tries the next format when the browser refuses to start with one, down to its own default', async () => {
    FakeMediaRecorder.failing = new Set(['audio/webm;codecs=opus']);
    const ptt = talkControl(true, recorder());
    ptt.press(true);
    await vi.waitFor(() => expect(ptt.micOn).toBe(true));
    ptt.press(false);
    expect(FakeMediaRecorder.formats).toEqual(['audio/webm']);
    FakeMediaRecorder.failing = new Set(['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus']);
    const again = talkControl(true, recorder());
    again.press(true);
    await vi.waitFor(() => expect(again.micOn).toBe(true));
    again.press(false);
    expect(FakeMediaRecorder.formats).toEqual(['audio/webm', undefined]);
    expect(delivered).toHaveLength(2);
  });

  it('records a transmission an alert opened even when the first format fails (a man-down on a phone)', () => {
    FakeMediaRecorder.failing = new Set(['audio/webm;codecs=opus']);
    const ptt = talkControl(true, recorder());
    ptt.granted({ room: 'Alpha', holdMs: 10_000, grantId: 'grant-of-man-down' });
    expect(ptt.micOn).toBe(true);
    ptt.revoked({ room: 'Alpha' });
    expect(delivered.map(({ grantId }) => grantId)).toEqual(['grant-of-man-down']);
  });

  it('opens the microphone an alert asked for even when no format records: the media server still hears it', () => {
    FakeMediaRecorder.failing = new Set([
      'audio/webm;codecs=opus',
      'audio/webm',
      'audio/ogg;codecs=opus',
      'audio/mp4',
      undefined,
    ]);
    const ptt = talkControl(true, recorder());
    expect(() => ptt.granted({ room: 'Alpha', holdMs: 10_000, grantId: 'grant-of-sos' })).not.toThrow();
    expect(ptt.micOn).toBe(true);
    ptt.revoked({ room: 'Alpha' });
    expect(ptt.micOn).toBe(false);
    expect(delivered).toEqual([]);
  });
});
