/**
 * Voice history: one row per recorded transmission, its audio under DATA_DIR/voice/<channel id>/<name>.
 * A channel's files live in the channel's own folder, so that deleting the channel (whose rows go by cascade)
 * removes them in one step. Rows and files are always deleted together (deletion, retention sweep).
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { VoiceMessage } from '@talkgroup/protocol';
import type { Selectable } from 'kysely';
import type { Db, VoiceMessagesTable } from '../db/schema.ts';
import { type FileUrls, writeWholeFile } from '../messages/files.ts';
import { loopTurn } from '../process/loop-turn.ts';
import { REMOVED_PER_STATEMENT, removeInBatches } from '../process/retention.ts';
import { VOICE_EXTENSIONS, type VoiceMimeType } from './audio.ts';

export type VoiceRow = Selectable<VoiceMessagesTable>;

/** Where a signed link serves a transmission's audio (see messages/files.ts for the signature). */
export const VOICE_FILES_PREFIX = '/files/voice/';
export const VOICE_FILE_NAME = /^[0-9a-f]{32}\.(webm|ogg|m4a)$/;
export const DEFAULT_VOICE_PAGE = 50;

export interface NewVoiceMessage {
  channelId: number;
  userId: number;
  startedAt: Date;
  durationMs: number;
  mime: VoiceMimeType;
  bytes: Uint8Array;
  /** The browser's id for this transmission: sent twice (a lost answer, the outbox), it is kept once. */
  clientId?: string;
  /** The floor grant (talk burst) an upload belongs to: each is used once (a unique index). */
  talkBurstId?: number;
}

export function voiceStore(db: Db, urls: FileUrls, dataDir: string) {
  const root = path.join(dataDir, 'voice');
  const folderOf = (channelId: number) => path.join(root, String(Math.trunc(channelId)));
  const pathOf = (row: Pick<VoiceRow, 'channel_id' | 'file_name'>) => {
    if (!VOICE_FILE_NAME.test(row.file_name)) throw new Error('not a stored voice file name');
    return path.join(folderOf(row.channel_id), row.file_name);
  };

  /** The audio's link is signed for one reader. */
  function toVoiceMessage(row: VoiceRow, readerId: number): VoiceMessage {
    return {
      id: row.id,
      channelId: row.channel_id,
      userId: row.user_id,
      display_name: row.user_display_name,
      createdAt: row.created_at,
      durationMs: row.duration_ms,
      url: urls.sign(row.file_name, readerId, undefined, VOICE_FILES_PREFIX),
    };
  }

  async function removeRows(rows: VoiceRow[]): Promise<void> {
    if (rows.length === 0) return;
    await db
      .deleteFrom('voice_messages')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    await Promise.all(rows.map((row) => rm(pathOf(row), { force: true })));
  }

  return {
    root,
    pathOf,
    toVoiceMessage,

    byClientId(userId: number, clientId: string): Promise<VoiceRow | undefined> {
      return db
        .selectFrom('voice_messages')
        .selectAll()
        .where('user_id', '=', userId)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
    },

    /** Writes the audio, then its row; a failed insert leaves no file behind. */
    async create(message: NewVoiceMessage): Promise<VoiceRow> {
      const author = await db
        .selectFrom('users')
        .select('display_name')
        .where('id', '=', message.userId)
        .executeTakeFirst();
      const fileName = `${randomBytes(16).toString('hex')}.${VOICE_EXTENSIONS[message.mime]}`;
      const file = path.join(folderOf(message.channelId), fileName);
      await mkdir(folderOf(message.channelId), { recursive: true });
      await writeWholeFile(file, message.bytes);
      try {
        return await db
          .insertInto('voice_messages')
          .values({
            channel_id: message.channelId,
            user_id: author ? message.userId : null,
            user_display_name: author?.display_name ?? '',
            file_name: fileName,
            mime: message.mime,
            size_bytes: message.bytes.byteLength,
            duration_ms: Math.round(message.durationMs),
            client_id: message.clientId ?? null,
            talk_burst_id: message.talkBurstId ?? null,
            created_at: message.startedAt.toISOString(),
            uploaded_at: new Date().toISOString(),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
      } catch (error) {
        await rm(file, { force: true });
        throw error;
      }
    },

    byId(id: number): Promise<VoiceRow | undefined> {
      return db.selectFrom('voice_messages').selectAll().where('id', '=', id).executeTakeFirst();
    },

    byFileName(name: string): Promise<VoiceRow | undefined> {
      return db.selectFrom('voice_messages').selectAll().where('file_name', '=', name).executeTakeFirst();
    },

    /**
     * Newest first (by the time the transmission started, then id). With `beforeId`, the `limit` transmissions
     * that come after that one in this order; `hasMore` says whether older ones remain. `since`: none that started
     * before (an area's member hears from its entry on).
     */
    async page(
      channelId: number,
      readerId: number,
      options: { beforeId?: number; limit?: number; since?: string } = {},
    ): Promise<{ messages: VoiceMessage[]; hasMore: boolean }> {
      const limit = options.limit ?? DEFAULT_VOICE_PAGE;
      const before =
        options.beforeId !== undefined
          ? await db
              .selectFrom('voice_messages')
              .select(['id', 'created_at'])
              .where('id', '=', options.beforeId)
              .where('channel_id', '=', channelId)
              .executeTakeFirst()
          : undefined;
      if (options.beforeId !== undefined && !before) return { messages: [], hasMore: false };
      const rows = await db
        .selectFrom('voice_messages')
        .selectAll()
        .where('channel_id', '=', channelId)
        .$if(options.since !== undefined, (q) => q.where('created_at', '>=', options.since as string))
        .$if(before !== undefined, (q) =>
          q.where((eb) =>
            eb.or([
              eb('created_at', '<', (before as { created_at: string }).created_at),
              eb.and([
                eb('created_at', '=', (before as { created_at: string }).created_at),
                eb('id', '<', (before as { id: number }).id),
              ]),
            ]),
          ),
        )
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit + 1)
        .execute();
      return {
        messages: rows.slice(0, limit).map((row) => toVoiceMessage(row, readerId)),
        hasMore: rows.length > limit,
      };
    },

    /** A channel's transmissions that started in [from, to), oldest first, read `batch` rows at a time. */
    async *inRange(channelId: number, from: Date, to: Date, batch = 500): AsyncGenerator<VoiceRow> {
      let after: { created_at: string; id: number } | undefined;
      for (;;) {
        const rows = await db
          .selectFrom('voice_messages')
          .selectAll()
          .where('channel_id', '=', channelId)
          .where('created_at', '>=', from.toISOString())
          .where('created_at', '<', to.toISOString())
          .$if(after !== undefined, (q) =>
            q.where((eb) =>
              eb.or([
                eb('created_at', '>', (after as VoiceRow).created_at),
                eb.and([eb('created_at', '=', (after as VoiceRow).created_at), eb('id', '>', (after as VoiceRow).id)]),
              ]),
            ),
          )
          .orderBy('created_at', 'asc')
          .orderBy('id', 'asc')
          .limit(batch)
          .execute();
        yield* rows;
        if (rows.length < batch) return;
        after = rows[rows.length - 1];
      }
    },

    /** The audio's size on disk, or undefined when the file is gone. */
    async sizeOnDisk(row: VoiceRow): Promise<number | undefined> {
      try {
        return (await stat(pathOf(row))).size;
      } catch {
        return undefined;
      }
    },

    readStream(row: VoiceRow) {
      return createReadStream(pathOf(row));
    },

    /** Deletes one transmission, row and file. */
    async remove(row: VoiceRow): Promise<void> {
      await removeRows([row]);
    },

    /** Deletes every transmission of a user (an administrator deleting the account chose to). */
    async removeOfUser(userId: number): Promise<number> {
      const rows = await db.selectFrom('voice_messages').selectAll().where('user_id', '=', userId).execute();
      for (let i = 0; i < rows.length; i += REMOVED_PER_STATEMENT) {
        await removeRows(rows.slice(i, i + REMOVED_PER_STATEMENT));
        await loopTurn();
      }
      return rows.length;
    },

    /** Retention: deletes rows and files of the transmissions that started before `cutoff`, a batch at a time. */
    removeOlderThan(cutoff: Date): Promise<number> {
      return removeInBatches(
        (limit) =>
          db
            .selectFrom('voice_messages')
            .selectAll()
            .where('created_at', '<', cutoff.toISOString())
            .orderBy('created_at')
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

export type VoiceStore = ReturnType<typeof voiceStore>;
