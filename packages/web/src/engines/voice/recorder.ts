/**
 * Voice history (issue 15): each transmission is recorded by the talker's own browser from its microphone
 * track. The recorder starts at the press, before the floor is granted (the track is still disabled, so it
 * records silence until then): the first syllable after the permit beep is never cut. A refused press
 * discards it; the release (or the server taking the floor back, or a lost link) ends it and hands the
 * recording over to be uploaded (voiceOutbox.ts). A recorder that cannot start never fails the press or the
 * microphone an alert opened (issue 70): it tries the next format, and at worst the page talks unrecorded (on
 * the media server the server records it anyway, voiceRoom.ts `recorderHere`).
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

/**
 * The formats tried, best first (issue 70: a recorder that cannot start with one tries the next): Opus in WebM
 * (Chromium) or Ogg (Firefox), which the server accepts; MP4 (Safari); then the browser's own choice (no
 * mimeType). A browser may say it supports a type and still refuse to start with it (NotSupportedError).
 */
export const MIME_CHOICES = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'];
/** Speech: 32 kbit/s Opus keeps a 60 s transmission near 240 kB, far below the server's 2 MB. */
const BITS_PER_SECOND = 32_000;

/** The types to try on this browser, in order; `undefined` last: the browser's default. */
function mimeChoices(): Array<string | undefined> {
  const said = (mime: string) => {
    try {
      return MediaRecorder.isTypeSupported(mime);
    } catch {
      return false;
    }
  };
  return [...MIME_CHOICES.filter(said), undefined];
}

/**
 * A started recorder of the track, trying each format in turn; null when none starts (no MediaRecorder, an
 * ended track): the transmission then goes on unrecorded by this page rather than failing the press.
 */
function startedRecorder(track: MediaStreamTrack, onData: (chunk: Blob) => void): MediaRecorder | null {
  if (typeof MediaRecorder === 'undefined') return null;
  for (const mimeType of mimeChoices()) {
    let media: MediaRecorder | undefined;
    try {
      media = new MediaRecorder(new MediaStream([track]), {
        ...(mimeType ? { mimeType } : {}),
        audioBitsPerSecond: BITS_PER_SECOND,
      });
      media.ondataavailable = (event) => {
        if (event.data.size > 0) onData(event.data);
      };
      media.start(1000);
      return media;
    } catch (error) {
      if (media) media.ondataavailable = null;
      console.warn(`voice history: the recorder did not start with ${mimeType ?? 'the default format'}`, error);
    }
  }
  return null;
}

/** Stops a recorder; one that fails to stop keeps nothing more (its chunks so far are still delivered). */
function stopQuietly(media: MediaRecorder): void {
  try {
    if (media.state !== 'inactive') media.stop();
  } catch {
    media.onstop?.(new Event('stop'));
  }
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
    if (!target?.recording) return false;
    const chunks: Blob[] = [];
    const media = startedRecorder(track, (chunk) => chunks.push(chunk));
    if (!media) return false;
    this.take = {
      media,
      chunks,
      target,
      startedAt: Date.now(),
      kept: false,
      ...(alsoIn?.length ? { alsoIn } : {}),
    };
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
    stopQuietly(take.media);
  }

  /** A refused or abandoned press: nothing is kept. */
  discard(): void {
    this.talking = false;
    const take = this.take;
    if (!take) return;
    this.take = null;
    take.kept = false;
    stopQuietly(take.media);
  }
}
