/**
 * Voice history (issue 15): each transmission is recorded by the talker's own browser from its microphone
 * track. The recorder starts at the press, before the floor is granted (the track is still disabled, so it
 * records silence until then): the first syllable after the permit beep is never cut. A refused press
 * discards it; the release (or the server taking the floor back, or a lost link) ends it and hands the
 * recording over to be uploaded (voiceOutbox.ts).
 */

/** A finished transmission, ready to upload. */
export interface Transmission {
  /** The browser's id: an upload sent again (a lost answer, the outbox) is kept once by the server. */
  clientId: string;
  channelId: number;
  /** ISO time of the press. */
  startedAt: string;
  durationMs: number;
  audio: Blob;
  /** An all call: the other channels it is kept in (the server checks this sender held the floor there). */
  alsoChannelIds?: number[];
  /** The floor grant it was said under, as the floor's answer named it: the server finds the grant by it. */
  grantId?: string;
}

/** Where recordings go: the channel the room is in, and whether that channel records. */
export interface RecordingTarget {
  channelId: number;
  recording: boolean;
}

/** Opus first: the server accepts Opus in WebM (Chromium) or Ogg (Firefox). */
const MIME_CHOICES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/webm', 'audio/ogg'];
/** Speech: 32 kbit/s Opus keeps a 60 s transmission near 240 kB, far below the server's 2 MB. */
const BITS_PER_SECOND = 32_000;

function supportedMime(): string | undefined {
  if (typeof MediaRecorder === 'undefined') return undefined;
  return MIME_CHOICES.find((mime) => MediaRecorder.isTypeSupported(mime));
}

function newClientId(): string {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

interface Take {
  media: MediaRecorder;
  chunks: Blob[];
  target: RecordingTarget;
  startedAt: number;
  /** The floor was granted: this take is a transmission. */
  kept: boolean;
  alsoIn?: number[];
  grantId?: string;
}

export class TransmissionRecorder {
  private take: Take | null = null;

  constructor(
    private readonly options: {
      target: () => RecordingTarget | null;
      deliver: (transmission: Transmission) => void;
      /** A press stops whatever the history is playing. */
      pressed?: () => void;
    },
  ) {}

  /** A press (or a grant without one) is under way: playback was stopped for it. */
  private talking = false;

  /**
   * The press: stops playback and starts recording the (still disabled) track. True when a take records (the
   * channel records and the browser can).
   */
  begin(track: MediaStreamTrack, alsoIn?: number[]): boolean {
    this.discard();
    this.options.pressed?.();
    this.talking = true;
    return this.startTake(track, alsoIn);
  }

  private startTake(track: MediaStreamTrack, alsoIn?: number[]): boolean {
    const target = this.options.target();
    const mimeType = supportedMime();
    if (!target?.recording || mimeType === undefined) return false;
    let media: MediaRecorder;
    try {
      media = new MediaRecorder(new MediaStream([track]), { mimeType, audioBitsPerSecond: BITS_PER_SECOND });
    } catch {
      return false;
    }
    const take: Take = {
      media,
      chunks: [],
      target,
      startedAt: Date.now(),
      kept: false,
      ...(alsoIn?.length ? { alsoIn } : {}),
    };
    media.ondataavailable = (event) => {
      if (event.data.size > 0) take.chunks.push(event.data);
    };
    media.start(1000);
    this.take = take;
    return true;
  }

  /** The floor is granted (a press, or the server giving it): the take is a transmission of that grant. */
  keep(track: MediaStreamTrack, grantId?: string): void {
    if (!this.talking) this.begin(track);
    if (!this.take) return;
    this.take.kept = true;
    if (grantId) this.take.grantId = grantId;
  }

  /** The release: stops and delivers a kept take. */
  end(): void {
    this.talking = false;
    const take = this.take;
    if (!take) return;
    this.take = null;
    const durationMs = Math.max(1, Date.now() - take.startedAt);
    take.media.onstop = () => {
      if (!take.kept || take.chunks.length === 0) return;
      this.options.deliver({
        clientId: newClientId(),
        channelId: take.target.channelId,
        startedAt: new Date(take.startedAt).toISOString(),
        durationMs,
        audio: new Blob(take.chunks, { type: take.media.mimeType || take.chunks[0].type }),
        ...(take.alsoIn ? { alsoChannelIds: take.alsoIn } : {}),
        ...(take.grantId ? { grantId: take.grantId } : {}),
      });
    };
    if (take.media.state !== 'inactive') take.media.stop();
  }

  /** A refused or abandoned press: nothing is kept. */
  discard(): void {
    this.talking = false;
    const take = this.take;
    if (!take) return;
    this.take = null;
    take.kept = false;
    if (take.media.state !== 'inactive') take.media.stop();
  }
}
