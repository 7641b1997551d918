/** Chat messages of a channel. Used by the HTTP routes and by the socket `message` event. */
import type { ImageMimeType, Message } from '@talkgroup/protocol';
import type { Selectable } from 'kysely';
import type { Db, MessagesTable } from '../db/schema.ts';
import type { FileUrls } from './files.ts';

export type MessageRow = Selectable<MessagesTable>;

export interface StoredImage {
  /** The generated name under DATA_DIR/uploads. */
  name: string;
  /** The name the sender gave, shown and offered on download. */
  fileName: string;
  mime: ImageMimeType;
}

export interface NewMessage {
  channelId: number;
  userId: number | null;
  text: string;
  file?: StoredImage;
  at?: Date;
  /** The author's name, when known (saves a query); `via` in create: a transaction to write in. */
  author?: { display_name: string };
}

export const DEFAULT_PAGE = 200;

export function messageStore(db: Db, urls: FileUrls) {
  /** A file's path is a signed URL for one reader; rows without a reader give no path to anyone. */
  function toMessage(row: MessageRow, readerId: number): Message {
    return {
      id: row.id,
      userId: row.user_id,
      channelId: row.channel_id,
      textMsg: row.text_msg,
      createdAt: row.created_at,
      file:
        row.file_path !== null
          ? { path: urls.sign(row.file_path, readerId), fileName: row.file_name ?? row.file_path }
          : null,
      user: { display_name: row.user_display_name },
    };
  }

  return {
    toMessage,

    /**
     * Stores a message and returns it as the protocol's Message; a file path in it is signed for the author
     * (pushes to the channel's room carry it: every socket there may read the channel).
     */
    async create(message: NewMessage, via: Db = db): Promise<Message> {
      const author = message.userId
        ? (message.author ??
          (await via.selectFrom('users').select('display_name').where('id', '=', message.userId).executeTakeFirst()))
        : undefined;
      const row = await via
        .insertInto('messages')
        .values({
          channel_id: message.channelId,
          user_id: author ? message.userId : null,
          user_display_name: author?.display_name ?? '',
          text_msg: message.text,
          file_path: message.file?.name ?? null,
          file_name: message.file?.fileName ?? null,
          file_mime: message.file?.mime ?? null,
          created_at: (message.at ?? new Date()).toISOString(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toMessage(row, message.userId ?? 0);
    },

    byId(id: number): Promise<MessageRow | undefined> {
      return db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /**
     * Oldest first. Without `beforeId`, the latest `limit` messages; with it, the `limit` messages just before
     * that id. `hasMore` says whether older ones remain. With `afterId` (a client catching up after a
     * reconnection), the `limit` messages just after that id, and `hasMore` says whether newer ones remain.
     * `since`: none sent before (an area's member reads from its entry on).
     */
    async page(
      channelId: number,
      readerId: number,
      options: { beforeId?: number; afterId?: number; limit?: number; since?: string } = {},
    ): Promise<{ messages: Message[]; hasMore: boolean }> {
      const limit = options.limit ?? DEFAULT_PAGE;
      const { since } = options;
      if (options.afterId !== undefined) {
        const newer = await db
          .selectFrom('messages')
          .selectAll()
          .where('channel_id', '=', channelId)
          .where('id', '>', options.afterId)
          .$if(since !== undefined, (q) => q.where('created_at', '>=', since as string))
          .orderBy('id', 'asc')
          .limit(limit + 1)
          .execute();
        return {
          messages: newer.slice(0, limit).map((row) => toMessage(row, readerId)),
          hasMore: newer.length > limit,
        };
      }
      const rows = await db
        .selectFrom('messages')
        .selectAll()
        .where('channel_id', '=', channelId)
        .$if(options.beforeId !== undefined, (q) => q.where('id', '<', options.beforeId as number))
        .$if(since !== undefined, (q) => q.where('created_at', '>=', since as string))
        .orderBy('id', 'desc')
        .limit(limit + 1)
        .execute();
      const hasMore = rows.length > limit;
      return {
        messages: rows
          .slice(0, limit)
          .reverse()
          .map((row) => toMessage(row, readerId)),
        hasMore,
      };
    },

    /** Deletes a message and returns what it was (the caller removes its file). */
    async remove(id: number): Promise<MessageRow | undefined> {
      return db.deleteFrom('messages').where('id', '=', id).returningAll().executeTakeFirst();
    },

    /** The message that holds this stored file, to check who may read it. */
    byFileName(
      name: string,
    ): Promise<Pick<MessageRow, 'channel_id' | 'file_name' | 'file_mime' | 'created_at'> | undefined> {
      return db
        .selectFrom('messages')
        .select(['channel_id', 'file_name', 'file_mime', 'created_at'])
        .where('file_path', '=', name)
        .executeTakeFirst();
    },

    /** Stored file names of a channel's messages (to delete them with the channel). */
    async fileNamesOfChannel(channelId: number): Promise<string[]> {
      const rows = await db
        .selectFrom('messages')
        .select('file_path')
        .where('channel_id', '=', channelId)
        .where('file_path', 'is not', null)
        .execute();
      return rows.map((r) => r.file_path as string);
    },
  };
}

export type MessageStore = ReturnType<typeof messageStore>;
