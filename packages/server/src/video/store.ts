/**
 * Live video's streams and their recordings (issue 61): one row per stream, written when it starts (so that an
 * upload can only be tied to a stream its sender owned) and ended when it ends; the recording the sharing page
 * uploads afterwards lives under DATA_DIR/video/<channel id>/<name>, a channel's folder going with the channel.
 * Rows and files are always deleted together (retention sweep). Issue 69: the row says from its start who records
 * the stream (`source`: the media server, or the sharing page), a recording is kept only from that source, once,
 * with its SHA-256.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { link, mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { VideoRecording, VideoSource } from '@talkgroup/protocol';
import type { Selectable } from 'kysely';
import type { Db, VideosTable } from '../db/schema.ts';
import type { FileUrls } from '../messages/files.ts';
import { removeInBatches } from '../process/retention.ts';

export type VideoRow = Selectable<VideosTable>;

/** Where a signed link serves a recording (see messages/files.ts for the signature). */
export const VIDEO_FILES_PREFIX = '/files/video/';
export const VIDEO_FILE_NAME = /^[0-9a-f]{32}\.webm$/;
const DEFAULT_PAGE = 50;

export interface NewStream {
  streamId: string;
  channelId: number;
  userId: number;
  name: string;
  startedAt: Date;
  requestId?: string;
  withoutConsent?: boolean;
  /** Who records it: the media server (a stream through it) or the sharing page (peer to peer). */
  source: VideoSource;
}

/** A recording to keep: its file (already written to `temporary`), and what the server measured of it. */
export interface KeptRecording {
  temporary: string;
  size: number;
  sha256: string;
  /** From the stream's start to its end, as the server saw them. */
  durationMs: number;
  endedAt: Date;
  source: VideoSource;
}

/** A file's SHA-256 (hex), read as a stream. */
export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export function videoStore(db: Db, urls: FileUrls, dataDir: string) {
  const root = path.join(dataDir, 'video');
  const uploads = path.join(root, 'uploads');
  const folderOf = (channelId: number) => path.join(root, String(Math.trunc(channelId)));
  const pathOf = (row: Pick<VideoRow, 'channel_id' | 'file_name'>) => {
    if (!row.file_name || !VIDEO_FILE_NAME.test(row.file_name)) throw new Error('not a stored video file name');
    return path.join(folderOf(row.channel_id), row.file_name);
  };

  /** The recording's link is signed for one reader. */
  function toRecording(row: VideoRow, readerId: number): VideoRecording {
    return {
      id: row.id,
      channelId: row.channel_id,
      streamId: row.stream_id,
      userId: row.user_id,
      name: row.user_display_name,
      startedAt: row.started_at,
      durationMs: row.duration_ms ?? 0,
      url: urls.sign(row.file_name ?? '', readerId, undefined, VIDEO_FILES_PREFIX),
      sha256: row.sha256,
      source: row.source,
    };
  }

  async function removeRows(rows: VideoRow[]): Promise<void> {
    if (rows.length === 0) return;
    await db
      .deleteFrom('videos')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    await Promise.all(rows.filter((row) => row.file_name).map((row) => rm(pathOf(row), { force: true })));
  }

  const byStream = (streamId: string) =>
    db.selectFrom('videos').selectAll().where('stream_id', '=', streamId).executeTakeFirst();

  return {
    root,
    pathOf,
    toRecording,
    byStream,

    /** A stream that starts: its row, before its first viewer. */
    async started(stream: NewStream): Promise<void> {
      await db
        .insertInto('videos')
        .values({
          stream_id: stream.streamId,
          channel_id: stream.channelId,
          user_id: stream.userId,
          user_display_name: stream.name,
          started_at: stream.startedAt.toISOString(),
          request_id: stream.requestId ?? null,
          without_consent: stream.withoutConsent ? 1 : 0,
          source: stream.source,
        })
        .execute();
    },

    /** The stream is over (its first end counts). */
    async ended(streamId: string, at = new Date()): Promise<void> {
      await db
        .updateTable('videos')
        .set({ ended_at: at.toISOString() })
        .where('stream_id', '=', streamId)
        .where('ended_at', 'is', null)
        .execute();
    },

    /**
     * Keeps a recording (already written to `temporary`): linked under its final name in the channel's folder, then
     * its row filled, once, and only from the stream's own source (a row kept before 0044 says none); undefined
     * when the stream already has one, or is recorded by the other source (the new file is removed).
     */
    async keep(row: VideoRow, recording: KeptRecording): Promise<VideoRow | undefined> {
      const fileName = `${randomBytes(16).toString('hex')}.webm`;
      const file = path.join(folderOf(row.channel_id), fileName);
      await mkdir(folderOf(row.channel_id), { recursive: true });
      await link(recording.temporary, file);
      try {
        const kept = await db
          .updateTable('videos')
          .set({
            file_name: fileName,
            mime: 'video/webm',
            size_bytes: recording.size,
            duration_ms: Math.round(recording.durationMs),
            uploaded_at: new Date().toISOString(),
            ended_at: row.ended_at ?? recording.endedAt.toISOString(),
            sha256: recording.sha256,
          })
          .where('id', '=', row.id)
          .where('file_name', 'is', null)
          .where((eb) => eb.or([eb('source', 'is', null), eb('source', '=', recording.source)]))
          .returningAll()
          .executeTakeFirst();
        if (!kept) await rm(file, { force: true });
        return kept;
      } catch (error) {
        await rm(file, { force: true });
        throw error;
      }
    },

    /**
     * A temporary name for an upload on its way (beside the channels' folders: one file system, a link away). Its
     * folder is made when the server starts (`prepare`), so that a refused upload leaves no new folder either.
     */
    async temporary(): Promise<string> {
      await mkdir(uploads, { recursive: true });
      return path.join(uploads, `${randomBytes(16).toString('hex')}.part`);
    },

    async prepare(): Promise<void> {
      await mkdir(uploads, { recursive: true });
    },

    byFileName(name: string): Promise<VideoRow | undefined> {
      return db.selectFrom('videos').selectAll().where('file_name', '=', name).executeTakeFirst();
    },

    /**
     * A channel's recordings, newest first (by start, then id); `onlyUserId`: only that sharer's. With `beforeId`,
     * those after that one in this order; `hasMore` says whether older ones remain.
     */
    async page(
      channelId: number,
      options: { beforeId?: number; limit?: number; onlyUserId?: number; since?: string },
    ): Promise<{ rows: VideoRow[]; hasMore: boolean }> {
      const limit = options.limit ?? DEFAULT_PAGE;
      const before =
        options.beforeId === undefined
          ? undefined
          : await db
              .selectFrom('videos')
              .select(['id', 'started_at'])
              .where('id', '=', options.beforeId)
              .where('channel_id', '=', channelId)
              .executeTakeFirst();
      if (options.beforeId !== undefined && !before) return { rows: [], hasMore: false };
      const rows = await db
        .selectFrom('videos')
        .selectAll()
        .where('channel_id', '=', channelId)
        .where('file_name', 'is not', null)
        .$if(options.onlyUserId !== undefined, (q) => q.where('user_id', '=', options.onlyUserId as number))
        .$if(options.since !== undefined, (q) => q.where('started_at', '>=', options.since as string))
        .$if(before !== undefined, (q) => {
          const { started_at, id } = before as { started_at: string; id: number };
          return q.where((eb) =>
            eb.or([eb('started_at', '<', started_at), eb.and([eb('started_at', '=', started_at), eb('id', '<', id)])]),
          );
        })
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit + 1)
        .execute();
      return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
    },

    /** A channel's recordings that started in [from, to), oldest first (the voice export adds them). */
    inRange(channelId: number, from: Date, to: Date): Promise<VideoRow[]> {
      return db
        .selectFrom('videos')
        .selectAll()
        .where('channel_id', '=', channelId)
        .where('file_name', 'is not', null)
        .where('started_at', '>=', from.toISOString())
        .where('started_at', '<', to.toISOString())
        .orderBy('started_at', 'asc')
        .orderBy('id', 'asc')
        .execute();
    },

    /** The recording's size on disk, or undefined when the file is gone. */
    async sizeOnDisk(row: VideoRow): Promise<number | undefined> {
      try {
        return (await stat(pathOf(row))).size;
      } catch {
        return undefined;
      }
    },

    /** The recording, whole or a byte range of it (a player seeking). */
    readStream(row: VideoRow, range?: { start: number; end: number }) {
      return createReadStream(pathOf(row), range);
    },

    /** Retention: deletes the streams (rows and files) that started before `cutoff`, a batch at a time. */
    removeOlderThan(cutoff: Date): Promise<number> {
      return removeInBatches(
        (limit) =>
          db
            .selectFrom('videos')
            .selectAll()
            .where('started_at', '<', cutoff.toISOString())
            .orderBy('started_at')
            .limit(limit)
            .execute(),
        removeRows,
      );
    },

    /** The folder of a deleted channel (its rows went by cascade). */
    async removeChannelFolder(channelId: number): Promise<void> {
      await rm(folderOf(channelId), { recursive: true, force: true });
    },
  };
}

export type VideoStore = ReturnType<typeof videoStore>;
