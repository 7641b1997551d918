/**
 * What a channel's chat shows, kept apart from React so that it can be tested: the history pages as the
 * server returned them, the messages that arrived live (messageResponse and onSendMessage carry the same
 * message, and the sender also gets it in its HTTP response), and the ids deleted since the page opened.
 * Each message shows once, by id, oldest first; a deleted message never comes back, even when a history
 * page fetched before the deletion still holds it.
 */
import type { Message } from '@talkgroup/protocol';

export interface ChatLog {
  readonly channelId: number | undefined;
  /** Messages received live (socket events, the responses of our own sends), by id. */
  readonly live: ReadonlyMap<number, Message>;
  readonly deleted: ReadonlySet<number>;
}

export function emptyChatLog(channelId: number | undefined): ChatLog {
  return { channelId, live: new Map(), deleted: new Set() };
}

/** A message received live: kept once by id (the latest copy wins); another channel's or a deleted one is ignored. */
export function receiveMessage(log: ChatLog, message: Message): ChatLog {
  if (message.channelId !== log.channelId || log.deleted.has(message.id)) return log;
  return { ...log, live: new Map(log.live).set(message.id, message) };
}

export function removeMessage(log: ChatLog, id: number): ChatLog {
  if (log.deleted.has(id)) return log;
  const live = new Map(log.live);
  live.delete(id);
  return { ...log, live, deleted: new Set(log.deleted).add(id) };
}

/** The messages to show: every history page and the live ones, once each by id, without the deleted, by id. */
export function visibleMessages(history: readonly (readonly Message[])[], log: ChatLog): Message[] {
  const byId = new Map<number, Message>();
  for (const page of history) for (const message of page) byId.set(message.id, message);
  for (const message of log.live.values()) byId.set(message.id, message);
  for (const id of log.deleted) byId.delete(id);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** The cursor for the page before `page`: its oldest id, or none when the server has nothing older. */
export function earlierPageParam(page: { discussion: readonly Message[]; hasMore: boolean }): number | undefined {
  if (!page.hasMore || page.discussion.length === 0) return undefined;
  return Math.min(...page.discussion.map((message) => message.id));
}
