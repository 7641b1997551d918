/**
 * Uploads recorded transmissions (uploadVoiceMessage). One that cannot be sent now (offline, the server
 * away) waits in IndexedDB and goes when the connection is back: on the socket's reconnection, the browser's
 * `online` event, or a retry a little later. The server keeps a transmission sent twice once (its clientId).
 */
import { UPLOAD_VOICE_MESSAGE_PATH } from '@talkgroup/protocol';
import { idbStore } from '../../api/idbStore.ts';
import type { Transmission } from './recorder.ts';

const DB_NAME = 'talkgroup-voice';
const STORE = 'outbox';
const RETRY_MS = 15_000;

interface Queued extends Transmission {
  /** Whose transmission: another account signed in on this browser does not send it. */
  userId: number;
}

const inStore = idbStore(DB_NAME, STORE, 'clientId');

/** 'sent', 'refused' (the server said no: recording off, not a member; keeping it would not help) or 'later'. */
type UploadResult = 'sent' | 'refused' | 'later';

export async function uploadTransmission(transmission: Transmission, token: string): Promise<UploadResult> {
  const form = new FormData();
  form.append('channelId', String(transmission.channelId));
  form.append('startedAt', transmission.startedAt);
  form.append('durationMs', String(Math.round(transmission.durationMs)));
  form.append('clientId', transmission.clientId);
  if (transmission.grantId) form.append('grantId', transmission.grantId);
  if (transmission.alsoChannelIds?.length) form.append('alsoChannelIds', transmission.alsoChannelIds.join(','));
  const { type } = transmission.audio;
  const extension = type.includes('ogg') ? 'ogg' : type.includes('mp4') ? 'm4a' : 'webm';
  // The file goes last: the server reads the fields before it reads the audio.
  form.append('audio', transmission.audio, `transmission.${extension}`);
  try {
    const response = await fetch(UPLOAD_VOICE_MESSAGE_PATH, {
      method: 'POST',
      headers: { 'x-access-token': token },
      body: form,
    });
    if (response.ok) return 'sent';
    return response.status >= 500 || response.status === 429 ? 'later' : 'refused';
  } catch {
    return 'later';
  }
}

export class VoiceOutbox {
  private flushing = false;
  private retry: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly who: () => { userId: number; token: string } | null) {}

  /** Uploads at once; kept in IndexedDB when that fails for now. */
  async send(transmission: Transmission): Promise<void> {
    const who = this.who();
    if (!who) return;
    const result = await uploadTransmission(transmission, who.token);
    if (result !== 'later') return;
    try {
      await inStore('readwrite', (store) => store.put({ ...transmission, userId: who.userId } satisfies Queued));
    } catch {
      // No IndexedDB (a private mode may refuse it): the transmission is lost, as before this feature.
      return;
    }
    this.retryLater();
  }

  /** Sends what waits, oldest first; stops at the first that still cannot go. */
  async flush(): Promise<void> {
    const who = this.who();
    if (!who || this.flushing || typeof indexedDB === 'undefined') return;
    this.flushing = true;
    try {
      const waiting = (await inStore<Queued[]>('readonly', (store) => store.getAll()))
        .filter((queued) => queued.userId === who.userId)
        .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
      for (const queued of waiting) {
        const result = await uploadTransmission(queued, who.token);
        if (result === 'later') {
          this.retryLater();
          return;
        }
        await inStore('readwrite', (store) => store.delete(queued.clientId));
      }
    } catch {
      // IndexedDB unavailable: nothing waits.
    } finally {
      this.flushing = false;
    }
  }

  private retryLater(): void {
    clearTimeout(this.retry);
    this.retry = setTimeout(() => void this.flush(), RETRY_MS);
  }

  stop(): void {
    clearTimeout(this.retry);
  }
}
