/**
 * Where a live video's recording waits until the server has it (issue 61 item 5): IndexedDB, from the moment the
 * stream ends until its upload is taken or refused for good. A page closed or reloaded in between, or a phone
 * that lost the network for longer than the page's retries, loses nothing: the next channel page of the member's
 * /talk sends what waits (flushVideoOutbox). The server takes a stream's recording once (409 after), so two pages
 * sending the same one keep one.
 */
import { idbStore } from '../../api/idbStore.ts';

const DB_NAME = 'talkgroup-video';
const STORE = 'outbox';

export interface WaitingRecording {
  streamId: string;
  durationMs: number;
  video: Blob;
  /** Whose stream: another account signed in on this browser does not send it. */
  userId: number;
}

const inStore = idbStore(DB_NAME, STORE, 'streamId');

/** Kept until forgotten; a browser without IndexedDB (or out of room) keeps it in the page only. */
export async function keepRecording(recording: WaitingRecording): Promise<void> {
  await inStore('readwrite', (store) => store.put(recording)).catch(() => undefined);
}

export async function forgetRecording(streamId: string): Promise<void> {
  await inStore('readwrite', (store) => store.delete(streamId)).catch(() => undefined);
}

export async function waitingRecordings(userId: number): Promise<WaitingRecording[]> {
  const all = await inStore<WaitingRecording[]>('readonly', (store) => store.getAll()).catch(() => []);
  return all.filter((recording) => recording.userId === userId);
}
