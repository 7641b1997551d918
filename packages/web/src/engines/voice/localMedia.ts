/**
 * The local microphone (and the join view's camera): the constraints asked for, and why there is no
 * microphone when the browser refuses one.
 */

/** Why there is no local microphone: each has its own sentence in the page. */
export type MediaProblem = 'denied' | 'notFound' | 'busy' | 'insecure' | 'failed';

export function classifyMediaError(error: unknown): MediaProblem {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return 'denied';
  if (name === 'NotFoundError' || name === 'DevicesNotFoundError' || name === 'OverconstrainedError') return 'notFound';
  if (name === 'NotReadableError' || name === 'TrackStartError' || name === 'AbortError') return 'busy';
  return 'failed';
}

export interface LocalMediaOptions {
  /** The join view: video at an ideal 240x240 as well as audio. */
  video: boolean;
  /** Echo cancellation, noise suppression and automatic gain. */
  voiceProcessing: boolean;
}

export function mediaConstraints({ video, voiceProcessing }: LocalMediaOptions): MediaStreamConstraints {
  return {
    audio: { echoCancellation: voiceProcessing, noiseSuppression: voiceProcessing, autoGainControl: voiceProcessing },
    video: video ? { width: { ideal: 240 }, height: { ideal: 240 } } : false,
  };
}

/**
 * Takes the microphone (and camera) with every audio track disabled, so that talking is only a press away.
 * Never throws: without a microphone the result says why.
 */
export async function openLocalMedia(
  options: LocalMediaOptions,
): Promise<{ stream: MediaStream | null; problem: MediaProblem | null }> {
  if (!navigator.mediaDevices?.getUserMedia) {
    return { stream: null, problem: window.isSecureContext ? 'failed' : 'insecure' };
  }
  try {
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia(mediaConstraints(options));
    } catch (error) {
      // The join view still works audio-only when there is no camera.
      if (!options.video || classifyMediaError(error) === 'denied') throw error;
      stream = await navigator.mediaDevices.getUserMedia({ ...mediaConstraints(options), video: false });
    }
    for (const track of stream.getAudioTracks()) track.enabled = false;
    return { stream, problem: stream.getAudioTracks().length > 0 ? null : 'notFound' };
  } catch (error) {
    console.warn('Talkgroup: no local media', error);
    return { stream: null, problem: classifyMediaError(error) };
  }
}

/**
 * Takes the microphone again with other options (voice processing), for a transport to put in place of the old
 * track (VoiceTransport.replaceMicTrack): no renegotiation, the calls keep going. Null when the page no longer
 * wants it (the room closed meanwhile) or the browser gave none.
 */
export async function takeMicTrack(
  options: LocalMediaOptions,
  stillWanted: () => boolean,
): Promise<MediaStreamTrack | null> {
  if (!navigator.mediaDevices?.getUserMedia) return null;
  const fresh = await navigator.mediaDevices.getUserMedia({ audio: mediaConstraints(options).audio });
  const track = fresh.getAudioTracks()[0];
  if (!track || !stillWanted()) {
    for (const t of fresh.getTracks()) t.stop();
    return null;
  }
  return track;
}
