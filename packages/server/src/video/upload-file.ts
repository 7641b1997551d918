/**
 * A sharer's recording on its way to disk (issue 69): nothing is written until its first bytes (VIDEO_HEADER_WINDOW)
 * are seen to be a WebM video, the file is opened only then, and the upload stops the moment it passes its limit
 * (the stream's length at VIDEO_MAX_KBPS plus 1 MB, or VIDEO_MAX_BYTES): what was written of it is removed by the
 * caller. Its SHA-256 is taken as it passes, so that the kept file's hash is of the bytes received.
 */
import { createHash } from 'node:crypto';
import { type FileHandle, open } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { isWebmVideo, VIDEO_HEADER_WINDOW } from './webm.ts';

export interface UploadLimits {
  maxBytes: number;
  /** The error past `maxBytes`. */
  tooLarge(): Error;
  /** The error for a file whose first bytes are not a WebM video (or an empty one). */
  notVideo(empty: boolean): Error;
}

/** Writes to `file` what passes the limits; `written()` once it finished. */
export function guardedFile(file: string, limits: UploadLimits) {
  const hash = createHash('sha256');
  let size = 0;
  let head: Buffer[] | undefined = [];
  let headBytes = 0;
  let handle: FileHandle | undefined;

  async function write(bytes: Buffer): Promise<void> {
    handle ??= await open(file, 'wx', 0o600);
    let offset = 0;
    while (offset < bytes.length) offset += (await handle.write(bytes, offset)).bytesWritten;
  }
  /** The first bytes, once there are enough of them (or the file ended): checked, then written. */
  async function release(): Promise<void> {
    const bytes = Buffer.concat(head ?? []);
    head = undefined;
    if (bytes.length === 0 || !isWebmVideo(bytes)) throw limits.notVideo(bytes.length === 0);
    await write(bytes);
  }

  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > limits.maxBytes) return done(limits.tooLarge());
      hash.update(chunk);
      if (!head) return void write(chunk).then(() => done(), done);
      head.push(chunk);
      headBytes += chunk.length;
      if (headBytes < VIDEO_HEADER_WINDOW) return done();
      void release().then(() => done(), done);
    },
    final(done) {
      const flushed = head ? release() : Promise.resolve();
      void flushed.then(() => handle?.sync()).then(() => done(), done);
    },
    destroy(error, done) {
      const closing = handle?.close() ?? Promise.resolve();
      handle = undefined;
      void closing.then(
        () => done(error),
        () => done(error),
      );
    },
  });
  return { sink, written: () => ({ size, sha256: hash.digest('hex') }) };
}
