/**
 * Sending a chat message, whichever way it arrives: the HTTP call (sendMessageToChannel), an image upload
 * (uploadFile) or the socket events `message` / `message created`. The sender is always the token's user.
 */
import type { Message } from '@talkgroup/protocol';
import type { ActivityStore } from '../activities/store.ts';
import type { ChannelAccess, Reader } from '../channels/access.ts';
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
  access: ChannelAccess;
  messages: MessageStore;
  activities: ActivityStore;
  events: EventBus;
}) {
  const { access, messages, activities, events } = deps;
  return async function sendMessage({ sender, channelId, text, file }: OutgoingMessage): Promise<Message> {
    const channel = await access.requireReader(sender, channelId);
    const message = await messages.create({ channelId: channel.id, userId: sender.userId, text, file });
    await activities.record(file ? 'image_send' : 'message_send', {
      userId: sender.userId,
      channelId: channel.id,
      channelName: channel.name,
    });
    events.emit('messageCreated', { channel, message });
    return message;
  };
}

export type SendMessage = ReturnType<typeof messageSender>;
