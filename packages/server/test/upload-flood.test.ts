/**
 * No upload fills the disk (issue 69 item 2): a member floods uploadVideo with hostile forms (someone else's stream,
 * an unknown or live one, the file before the fields, a file that is no video or larger than its stream allows,
 * hostile field values), each refused with a 4xx and a sentence, and the data folder holds the same files and bytes
 * before and after (the database's own files apart). A refused upload is answered before its body has come, and an
 * upload past its limit is cut off as it comes: nothing of either is on disk while the sender still sends.
 * VIDEO_UPLOADS_PER_HOUR counts each user's uploads (429), on every instance through Redis.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseVideoConfig } from '../src/config/video.ts';
import { multipartForm, pngImage } from './chat-fixtures.ts';
import { databases } from './harness.ts';
import { HOSTILE, seeded } from './hostile-values.ts';
import { eventually, type TestClient } from './realtime-harness.ts';
import { type VideoWorld, videoWorld, webmVideo } from './video-world.ts';

/** Every entry under the data folder with its size (folders too), but the database's own files. */
function dataFolder(dir: string): Record<string, number> {
  const entries: Record<string, number> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const name = path.relative(dir, file);
    if (/^talkgroup\.sqlite/.test(name)) continue;
    entries[name] = entry.isDirectory() ? -1 : statSync(file).size;
  }
  return entries;
}

/** A form's text field, as multipart writes it (a hostile value as the text a browser would send). */
function asField(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('latin1');
  return JSON.stringify(value) ?? 'undefined';
}

describe.each(databases)('a flood of video uploads on %s', { timeout: 180_000 }, (dialect) => {
  let w: VideoWorld;
  afterEach(async () => {
    await w.close();
  });

  const upload = async (
    token: string | undefined,
    fields: Record<string, string | number>,
    file?: { bytes: Buffer; field?: string },
  ) => {
    // The page's own count goes with the stream, as the web app sends it (the server keeps its own).
    const form = multipartForm(
      'streamId' in fields && !('durationMs' in fields) ? { ...fields, durationMs: 1000 } : fields,
      file && { field: file.field ?? 'video', fileName: 'clip.webm', contentType: 'video/webm', bytes: file.bytes },
    );
    const response = await w.app.fastify.inject({
      method: 'POST',
      url: '/user/api/uploadVideo',
      headers: { 'content-type': form.contentType, ...(token ? { 'x-access-token': token } : {}) },
      payload: form.payload,
    });
    return { status: response.statusCode, body: response.json() };
  };
  /** A stream this page started and stopped. */
  const streamed = async (phone: TestClient) => {
    const streamId = await w.share(phone);
    expect(await phone.emitAck('video_stop', { streamId })).toEqual({ success: true });
    return streamId;
  };

  it('refuses each hostile upload with a sentence, and leaves the data folder as it was', async () => {
    w = await videoWorld(dialect, { video: { ...parseVideoConfig({}), uploadsPerHour: 1000 } });
    const phone = await w.inRoom(w.mia);
    const olafPhone = await w.inRoom(w.olaf);
    const mine = await streamed(phone);
    const olafs = await streamed(olafPhone);
    const live = await w.share(phone);
    const video = webmVideo(4000);
    const before = dataFolder(w.app.config.dataDir);

    const random = seeded(69);
    const noise = Buffer.from(Array.from({ length: 70_000 }, () => Math.floor(random() * 256)));
    const attempts: Array<[string, Promise<{ status: number; body: { result?: string; code?: string } }>]> = [
      ['no token', upload(undefined, { streamId: mine }, { bytes: video })],
      ['someone else’s stream', upload(w.mia.token, { streamId: olafs }, { bytes: video })],
      ['an unknown stream', upload(w.mia.token, { streamId: 'f'.repeat(36) }, { bytes: video })],
      ['a live stream', upload(w.mia.token, { streamId: live }, { bytes: video })],
      ['the file before the fields', upload(w.mia.token, {}, { bytes: video })],
      ['another field', upload(w.mia.token, { streamId: mine }, { bytes: video, field: 'image' })],
      ['no video', upload(w.mia.token, { streamId: mine }, { bytes: noise })],
      ['an image', upload(w.mia.token, { streamId: mine }, { bytes: pngImage(2, 2, 100_000) })],
      ['an empty file', upload(w.mia.token, { streamId: mine }, { bytes: Buffer.alloc(0) })],
      ['larger than its stream', upload(w.mia.token, { streamId: mine }, { bytes: webmVideo(3 * 1024 * 1024) })],
      ['no file', upload(w.mia.token, { streamId: mine })],
    ];
    for (const hostile of HOSTILE) {
      attempts.push(['a hostile streamId', upload(w.mia.token, { streamId: asField(hostile) }, { bytes: video })]);
      attempts.push([
        'a hostile durationMs',
        upload(w.mia.token, { streamId: mine, durationMs: asField(hostile) }, { bytes: video }),
      ]);
    }
    for (const [what, attempt] of attempts) {
      const { status, body } = await attempt;
      expect(status, what).toBeGreaterThanOrEqual(400);
      expect(status, what).toBeLessThan(500);
      expect(body.result, what).toMatch(/\p{L}/u);
    }
    expect(dataFolder(w.app.config.dataDir)).toEqual(before);
    expect(w.app.services.faults.counts().worker ?? 0).toBe(0);
    // The member's own stream is still hers to upload, once.
    expect((await upload(w.mia.token, { streamId: mine }, { bytes: video })).status).toBe(200);
  });

  it('answers a refused upload before its body has come, and cuts off one past its limit as it comes', async () => {
    w = await videoWorld(dialect);
    const phone = await w.inRoom(w.mia);
    const olafPhone = await w.inRoom(w.olaf);
    const olafs = await streamed(olafPhone);
    const mine = await streamed(phone);
    const before = dataFolder(w.app.config.dataDir);
    const { port } = new URL(w.url);

    /**
     * An upload of `total` bytes of video sent slowly over a real connection, 64 kB at a time: the answer, and how
     * much of the file had been sent when it came.
     */
    async function slowUpload(streamId: string, total: number) {
      const boundary = 'talkgroup-slow-upload';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="streamId"\r\n\r\n${streamId}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="durationMs"\r\n\r\n1000\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="clip.webm"\r\n` +
          'Content-Type: video/webm\r\n\r\n',
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const file = webmVideo(total);
      const request = http.request({
        host: '127.0.0.1',
        port: Number(port),
        method: 'POST',
        path: '/user/api/uploadVideo',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + file.length + tail.length),
          'x-access-token': w.mia.token,
        },
      });
      let sent = 0;
      let answer: { status: number; body: { code?: string; result?: string }; sentBefore: number } | undefined;
      let responded = () => {};
      const response = new Promise<void>((resolve) => {
        responded = resolve;
      });
      request.on('error', () => undefined);
      request.on('response', (response) => {
        responded();
        const sentBefore = sent;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          answer = { status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()), sentBefore };
        });
      });
      request.write(head);
      // A slow sender: the data folder is looked at while it still sends.
      let onDisk = 0;
      let answered = false;
      void response.then(() => {
        answered = true;
      });
      while (!answered && sent < file.length && !request.destroyed) {
        const chunk = file.subarray(sent, sent + 64 * 1024);
        sent += chunk.length;
        // A drain, the answer or a closed connection ends the wait.
        if (!request.write(chunk))
          await Promise.race([
            new Promise((resolve) => request.once('drain', resolve)),
            new Promise((resolve) => request.once('close', resolve)),
            response,
          ]);
        const uploads = path.join(w.app.config.dataDir, 'video', 'uploads');
        for (const part of existsSync(uploads) ? readdirSync(uploads) : [])
          onDisk = Math.max(onDisk, statSync(path.join(uploads, part), { throwIfNoEntry: false })?.size ?? 0);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      // All sent without an answer: the form ends, as a browser's would.
      if (!answered && !request.destroyed) request.end(tail);
      const done = await eventually(async () => answer, 'the answer to a slow upload');
      request.destroy();
      return { ...done, onDisk, total: file.length };
    }

    // Someone else's stream: answered after the first bytes, with nothing written.
    const foreign = await slowUpload(olafs, 20 * 1024 * 1024);
    expect(foreign).toMatchObject({ status: 404, body: { code: 'video_not_found' }, onDisk: 0 });
    expect(foreign.sentBefore).toBeLessThan(foreign.total / 2);
    // Her own stream of a moment (about 1 MB allowed), 40 MB sent: cut off once past its limit.
    const flood = await slowUpload(mine, 40 * 1024 * 1024);
    expect(flood).toMatchObject({ status: 413, body: { code: 'video_too_large_for_stream' } });
    expect(flood.sentBefore).toBeLessThan(flood.total / 2);
    expect(flood.onDisk).toBeLessThanOrEqual(2 * 1024 * 1024);
    await eventually(
      async () => readdirSync(path.join(w.app.config.dataDir, 'video', 'uploads')).length === 0,
      'no part left',
    );
    expect(dataFolder(w.app.config.dataDir)).toEqual(before);
  });

  it('counts VIDEO_UPLOADS_PER_HOUR uploads per user, then answers 429 before reading the body', async () => {
    w = await videoWorld(dialect, { video: { ...parseVideoConfig({}), uploadsPerHour: 3 } });
    const phone = await w.inRoom(w.mia);
    const mine = await streamed(phone);
    // Refused or not, each counts: a sender cannot probe without end.
    expect((await upload(w.mia.token, { streamId: 'f'.repeat(36) }, { bytes: webmVideo() })).status).toBe(404);
    expect((await upload(w.mia.token, { streamId: mine }, { bytes: Buffer.from('not a video') })).status).toBe(400);
    expect((await upload(w.mia.token, { streamId: mine }, { bytes: webmVideo() })).status).toBe(200);
    const before = dataFolder(w.app.config.dataDir);
    const limited = await upload(w.mia.token, { streamId: mine }, { bytes: webmVideo() });
    expect(limited).toMatchObject({
      status: 429,
      body: { code: 'too_many_uploads', result: expect.stringMatching(/^Too many uploads: wait \d+ seconds/) },
    });
    expect(dataFolder(w.app.config.dataDir)).toEqual(before);
    // Another member is counted apart.
    const olafPhone = await w.inRoom(w.olaf);
    const olafs = await streamed(olafPhone);
    expect((await upload(w.olaf.token, { streamId: olafs }, { bytes: webmVideo() })).status).toBe(200);
  });
});
