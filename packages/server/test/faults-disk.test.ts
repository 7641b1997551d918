/**
 * Faults (issue 29): the disk of DATA_DIR full. DATA_DIR (the SQLite database, chat images, voice takes, video
 * recordings) is a small tmpfs of its own; a filler file takes the space. Uploads and voice takes answer 507 with a clear
 * sentence, nothing half-written is kept, the database stays intact, and uploads work again once space
 * returns. Mounting needs root, as the CI runs.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readdirSync, rmSync, truncateSync, writeSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelSummary } from '../src/channels/store.ts';
import { getFile, multipartForm, pngImage, upload, webmOpus } from './chat-fixtures.ts';
import { type Account, buildTestApp, createMember, signUpAdmin, type TestApp, testStorage } from './harness.ts';
import { webmVideo } from './video-world.ts';

const asRoot = process.getuid?.() === 0;

/** Every file under the folder (uploads/, voice/<channel>/), temporary ones included. */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name))
      .sort();
  } catch {
    return [];
  }
}

/** Writes zeros into `file` until the disk refuses, then gives `leave` bytes back. */
function fillDisk(file: string, leave: number): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  let written = 0;
  try {
    for (;;) written += writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  truncateSync(file, Math.max(0, written - leave));
}

describe.runIf(asRoot)('the disk of DATA_DIR full', () => {
  const storage = testStorage('sqlite');
  let mounted = false;
  let app: TestApp;
  let admin: Account;
  let mia: Account;
  let channel: ChannelSummary;
  const filler = () => path.join(storage.dataDir, 'filler');

  beforeAll(async () => {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m,mode=0700', 'tmpfs', storage.dataDir]);
    mounted = true;
    // A disk of 16 MB: no reserve for the database (DISK_RESERVE_MB, issue 69; uploads.test.ts tests it), so that
    // each upload meets the full disk itself.
    app = await buildTestApp(storage, { diskReserveBytes: 0 });
    admin = await signUpAdmin(app);
    mia = await createMember(app, admin, { firstName: 'Mia' });
    channel = await app.services.channels.create('Alpha');
    await app.services.memberships.add(channel.id, [mia.id]);
  });
  afterAll(async () => {
    await app?.close();
    if (mounted) execFileSync('umount', [storage.dataDir]);
    rmSync(storage.dataDir, { recursive: true, force: true });
  });

  /** A transmission of Mia's: the floor granted to her then (its talk burst), and the browser's recording of it. */
  async function uploadVoice(bytes: Buffer) {
    const at = new Date();
    const grantId = randomUUID();
    await app.services.db
      .insertInto('talk_bursts')
      .values({
        grant_id: grantId,
        user_id: mia.id,
        channel_id: channel.id,
        channel_name: channel.name,
        started_at: at.toISOString(),
        ended_at: new Date(at.getTime() + 2000).toISOString(),
        plane: 'mesh',
      })
      .execute();
    const form = multipartForm(
      { channelId: channel.id, startedAt: at.toISOString(), durationMs: 2000, grantId },
      { field: 'audio', fileName: 'talk.webm', contentType: 'audio/webm', bytes },
    );
    const response = await app.fastify.inject({
      method: 'POST',
      url: '/user/api/uploadVoiceMessage',
      headers: { 'content-type': form.contentType, 'x-access-token': mia.token },
      payload: form.payload,
    });
    return { status: response.statusCode, body: response.json() };
  }
  /** A stream of Mia's that went peer to peer a minute long (issue 69), and its recording's upload. */
  async function uploadVideo(bytes: Buffer) {
    const streamId = randomUUID();
    await app.services.videos.started({
      streamId,
      channelId: channel.id,
      userId: mia.id,
      name: 'Mia',
      startedAt: new Date(Date.now() - 60_000),
      source: 'sharer',
    });
    await app.services.videos.ended(streamId);
    const form = multipartForm(
      { streamId },
      { field: 'video', fileName: 'clip.webm', contentType: 'video/webm', bytes },
    );
    const response = await app.fastify.inject({
      method: 'POST',
      url: '/user/api/uploadVideo',
      headers: { 'content-type': form.contentType, 'x-access-token': mia.token },
      payload: form.payload,
    });
    return { status: response.statusCode, body: response.json() };
  }
  const image = (noise: number) => ({ fileName: 'photo.png', contentType: 'image/png', bytes: pngImage(2, 2, noise) });
  const messageCount = async () =>
    Number(
      (
        await app.services.db
          .selectFrom('messages')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers 507 to uploads and voice takes, keeps nothing half-written and the database intact, and recovers', async () => {
    const before = await upload(app, mia.token, { channelId: channel.id, textMsg: 'before' }, image(1000));
    expect(before.status).toBe(200);
    const messagesBefore = await messageCount();
    const filesBefore = filesUnder(path.join(storage.dataDir, 'uploads'));
    const takesBefore = filesUnder(path.join(storage.dataDir, 'voice'));
    const videosBefore = filesUnder(path.join(storage.dataDir, 'video'));

    // Less room than one file: each write starts and is cut short by ENOSPC.
    fillDisk(filler(), 64 * 1024);
    const refused = await upload(app, mia.token, { channelId: channel.id, textMsg: 'lost' }, image(400 * 1024));
    expect(refused.status).toBe(507);
    expect(refused.body).toMatchObject({
      success: false,
      code: 'disk_full',
      result: 'The server has no disk space left to keep this file; nothing was saved. Try again later.',
    });
    const take = await uploadVoice(webmOpus(400 * 1024));
    expect(take.status).toBe(507);
    expect(take.body.code).toBe('disk_full');
    const video = await uploadVideo(webmVideo(400 * 1024));
    expect(video.status).toBe(507);
    expect(video.body.code).toBe('disk_full');

    // Nothing half-written: no new file, no temporary file, no message row for the refused image.
    expect(filesUnder(path.join(storage.dataDir, 'uploads'))).toEqual(filesBefore);
    expect(filesUnder(path.join(storage.dataDir, 'voice'))).toEqual(takesBefore);
    expect(filesUnder(path.join(storage.dataDir, 'video'))).toEqual(videosBefore);
    expect(await messageCount()).toBe(messagesBefore);
    // The database is intact and still answers reads.
    expect((await sql<{ integrity_check: string }>`pragma integrity_check`.execute(app.services.db)).rows).toEqual([
      { integrity_check: 'ok' },
    ]);
    const listed = await app.call('/user/api/getchannelmessagelistForAdmin', { channelId: channel.id }, mia.token);
    expect(listed.status).toBe(200);
    expect(listed.body.discussion.map((m: { textMsg: string }) => m.textMsg)).toEqual(['before']);

    // Space returns: the same server keeps files again.
    rmSync(filler());
    const bytes = pngImage(2, 2, 400 * 1024);
    const after = await upload(app, mia.token, { channelId: channel.id, textMsg: 'after' }, { ...image(0), bytes });
    expect(after.status).toBe(200);
    const served = await getFile(app, after.body.res.file.path);
    expect(served.statusCode).toBe(200);
    expect(Buffer.compare(served.rawPayload, bytes)).toBe(0);
    expect((await uploadVoice(webmOpus(400 * 1024))).status).toBe(200);
    expect((await uploadVideo(webmVideo(400 * 1024))).status).toBe(200);
    expect(filesUnder(path.join(storage.dataDir, 'uploads')).filter((file) => file.endsWith('.part'))).toEqual([]);
    expect((await sql<{ integrity_check: string }>`pragma integrity_check`.execute(app.services.db)).rows).toEqual([
      { integrity_check: 'ok' },
    ]);
  });
});
