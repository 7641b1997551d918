/**
 * The mesh's recording of a live video (issue 61 item 5): the sharing page records what it sends (MediaRecorder,
 * WebM) and uploads it once the stream is over (`uploadVideo`, multipart: video, streamId, durationMs), with its
 * progress; a failed upload is tried again after a pause, then waits for "Retry" with the recording kept in the
 * page, so that one failure loses nothing.
 *
 * It records a canvas that copies the camera's frames rather than the camera's stream: switching the camera
 * replaces the stream's track, which MediaRecorder does not follow (Chromium records the old, stopped track).
 */
import { UPLOAD_VIDEO_PATH, type VideoRecording } from '@talkgroup/protocol';
import { ApiError, apiErrorOf } from '../../api/client.ts';

const FRAMES_PER_SECOND = 15;
/**
 * Enough for a scene to be read again (640x480 at 15 frames a second), small enough that the server's default
 * VIDEO_MAX_BYTES (200 MB) holds about 45 minutes of it: MediaRecorder's own default (2.5 Mbit/s) would fill it
 * in ten.
 */
const RECORDING_BITS_PER_SECOND = 600_000;
/** The recording's widest side: a phone's full-HD camera is scaled down (the live picture is not). */
const RECORDING_MAX_SIDE = 960;

function recorderType(): string {
  for (const type of ['video/webm;codecs=vp8', 'video/webm;codecs=vp9', 'video/webm'])
    if (MediaRecorder.isTypeSupported(type)) return type;
  return 'video/webm';
}

export class StreamRecorder {
  private readonly chunks: Blob[] = [];
  private readonly recorder: MediaRecorder;
  private readonly canvas = document.createElement('canvas');
  private readonly source = document.createElement('video');
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly startedAt = Date.now();
  private finished: Promise<{ video: Blob; durationMs: number }> | null = null;

  constructor(camera: MediaStream) {
    const settings = camera.getVideoTracks()[0]?.getSettings();
    const width = settings?.width ?? 640;
    const height = settings?.height ?? 480;
    const scale = Math.min(1, RECORDING_MAX_SIDE / Math.max(width, height));
    this.canvas.width = Math.round(width * scale);
    this.canvas.height = Math.round(height * scale);
    this.source.muted = true;
    this.source.playsInline = true;
    this.follow(camera);
    const context = this.canvas.getContext('2d');
    this.timer = setInterval(() => {
      if (!context || this.source.readyState < 2) return;
      const { videoWidth: width, videoHeight: height } = this.source;
      const scale = Math.min(this.canvas.width / width, this.canvas.height / height);
      context.fillStyle = '#000';
      context.fillRect(0, 0, this.canvas.width, this.canvas.height);
      context.drawImage(
        this.source,
        (this.canvas.width - width * scale) / 2,
        (this.canvas.height - height * scale) / 2,
        width * scale,
        height * scale,
      );
    }, 1000 / FRAMES_PER_SECOND);
    this.recorder = new MediaRecorder(this.canvas.captureStream(FRAMES_PER_SECOND), {
      mimeType: recorderType(),
      videoBitsPerSecond: RECORDING_BITS_PER_SECOND,
    });
    this.recorder.ondataavailable = (event) => {
      if (event.data.size > 0) this.chunks.push(event.data);
    };
    this.recorder.start(1000);
  }

  /** The camera now (after a switch). */
  follow(camera: MediaStream): void {
    this.source.srcObject = camera;
    void this.source.play().catch(() => undefined);
  }

  /** Ends the recording once; its file and how long it lasted. */
  finish(): Promise<{ video: Blob; durationMs: number }> {
    this.finished ??= new Promise((resolve) => {
      const durationMs = Math.max(1, Date.now() - this.startedAt);
      const done = () => {
        clearInterval(this.timer);
        this.source.srcObject = null;
        resolve({ video: new Blob(this.chunks, { type: 'video/webm' }), durationMs });
      };
      if (this.recorder.state === 'inactive') done();
      else {
        this.recorder.onstop = done;
        this.recorder.stop();
      }
    });
    return this.finished;
  }
}

/** One upload of a recording, reporting its progress (0..1); rejects with the server's sentence. */
export function uploadRecording(
  recording: { video: Blob; durationMs: number; streamId: string },
  token: string | null,
  onProgress: (share: number) => void,
): Promise<VideoRecording> {
  const form = new FormData();
  form.append('streamId', recording.streamId);
  form.append('durationMs', String(Math.round(recording.durationMs)));
  // The file goes last: the server reads the fields before it streams the video to disk.
  form.append('video', recording.video, `${recording.streamId}.webm`);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', UPLOAD_VIDEO_PATH);
    if (token) request.setRequestHeader('x-access-token', token);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / Math.max(1, event.total));
    };
    request.onerror = () => reject(new ApiError(UPLOAD_VIDEO_PATH, 0, undefined));
    request.onload = () => {
      let payload: unknown;
      try {
        payload = JSON.parse(request.responseText);
      } catch {
        payload = undefined;
      }
      if (request.status >= 200 && request.status < 300 && payload && typeof payload === 'object' && 'res' in payload)
        resolve((payload as { res: VideoRecording }).res);
      else reject(apiErrorOf(UPLOAD_VIDEO_PATH, request.status, payload));
    };
    request.send(form);
  });
}

/**
 * A refusal the server will give again (a 4xx other than 408 and 429): trying again would not help. A stream still
 * live (409 video_still_live) is not one: it ends when its page's socket does.
 */
export function isFinalRefusal(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.code === 'video_still_live') return false;
  return error.status >= 400 && error.status < 500 && ![408, 429].includes(error.status);
}
