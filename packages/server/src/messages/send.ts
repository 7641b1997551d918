/**
 * Sending a chat message, whichever way it arrives: the HTTP call (sendMessageToChannel), an image upload
 * (uploadFile) or the socket events `message` / `message created`. The sender is always the token's user.
 *
 * One read (the channel, the sender's membership and names: channels/access.ts requireWriter) and one
 * transaction (the message and its activity: one commit, one fsync on SQLite), then the pushes.
 */
import type { Message } from '@talkgroup/protocol';
import type { ActivityStore } from '../activities/store.ts';
import type { ChannelAccess, Reader } from '../channels/access.ts';
import type { Db } from '../db/schema.ts';
import type { EventBus } from '../events.ts';
import type { MessageStore, StoredImage } from './store.ts';

export interface OutgoingMessage {
  sender: Reader;
  channelId: number;
  text: string;
  /** An image already saved under DATA_DIR/uploads. */
  file?: StoredImage;
}

export function messageSender(deps: {
  db: Db;
  access: ChannelAccess;
  messages: MessageStore;
  activities: ActivityStore;
  events: EventBus;
  /** Counts the sender's messages: throws a 429 when there are too many (auth/rate-limit.ts). */
  limit?: (userId: number) => Promise<void>;
}) {
  const { db, access, messages, activities, events, limit } = deps;
  return async function sendMessage({ sender, channelId, text, file }: OutgoingMessage): Promise<Message> {
    const { channel, author } = await access.requireWriter(sender, channelId);
    await limit?.(sender.userId);
    const { message, activity } = await db.transaction().execute(async (trx) => {
      const message = await messages.create({ channelId: channel.id, userId: sender.userId, text, file, author }, trx);
      const activity = await activities.recordWith(trx, file ? 'image_send' : 'message_send', {
        userId: sender.userId,
        channelId: channel.id,
        channelName: channel.name,
        user: author,
      });
      return { message, activity };
    });
    activities.announce(activity);
    events.emit('messageCreated', { channel, message });
    return message;
  };
}

export type SendMessage = ReturnType<typeof messageSender>;
