import type { Message } from '@talkgroup/protocol';
import { describe, expect, it } from 'vitest';
import { earlierPageParam, emptyChatLog, receiveMessage, removeMessage, visibleMessages } from './chatLog.ts';

const CHANNEL = 7;

function message(id: number, textMsg = `message ${id}`, channelId = CHANNEL): Message {
  return {
    id,
    userId: 1,
    channelId,
    textMsg,
    createdAt: '2026-01-01T10:00:00.000Z',
    file: null,
    user: { display_name: 'Ada Lovelace' },
  };
}

const ids = (messages: Message[]) => messages.map((m) => m.id);

describe('chat de-duplication', () => {
  it('shows a message once when both live events and the history carry it', () => {
    let log = emptyChatLog(CHANNEL);
    // messageResponse and onSendMessage carry the same message; the sender's HTTP response carries it too.
    log = receiveMessage(log, message(3));
    log = receiveMessage(log, message(3));
    log = receiveMessage(log, message(3));
    const shown = visibleMessages([[message(2), message(3)]], log);
    expect(ids(shown)).toEqual([2, 3]);
  });

  it('shows live messages and every history page together, oldest first', () => {
    let log = emptyChatLog(CHANNEL);
    log = receiveMessage(log, message(9));
    log = receiveMessage(log, message(8));
    // The latest page first, then the earlier page that "load earlier" fetched.
    const shown = visibleMessages(
      [
        [message(5), message(6)],
        [message(1), message(2)],
      ],
      log,
    );
    expect(ids(shown)).toEqual([1, 2, 5, 6, 8, 9]);
  });

  it('keeps the latest copy of a message received live', () => {
    let log = emptyChatLog(CHANNEL);
    log = receiveMessage(log, message(4, 'first'));
    log = receiveMessage(log, message(4, 'second'));
    expect(visibleMessages([[message(4, 'history')]], log).map((m) => m.textMsg)).toEqual(['second']);
  });

  it("ignores another channel's messages", () => {
    const log = receiveMessage(emptyChatLog(CHANNEL), message(5, 'elsewhere', CHANNEL + 1));
    expect(visibleMessages([], log)).toEqual([]);
  });

  it('ignores messages before the channel is known', () => {
    const log = receiveMessage(emptyChatLog(undefined), message(5));
    expect(visibleMessages([], log)).toEqual([]);
  });
});

describe('chat deletion', () => {
  it('removes a deleted message that came with the history', () => {
    const log = removeMessage(emptyChatLog(CHANNEL), 2);
    expect(ids(visibleMessages([[message(1), message(2), message(3)]], log))).toEqual([1, 3]);
  });

  it('removes a deleted message that came live', () => {
    let log = receiveMessage(emptyChatLog(CHANNEL), message(4));
    log = removeMessage(log, 4);
    expect(visibleMessages([], log)).toEqual([]);
  });

  it('does not bring a deleted message back when a late event or an older history page carries it', () => {
    let log = removeMessage(emptyChatLog(CHANNEL), 6);
    log = receiveMessage(log, message(6));
    // A history page fetched before the deletion still holds the message.
    expect(ids(visibleMessages([[message(5), message(6)]], log))).toEqual([5]);
  });

  it('a deletion in a fresh log (another room) is forgotten', () => {
    const before = removeMessage(emptyChatLog(CHANNEL), 6);
    expect(before.deleted.has(6)).toBe(true);
    expect(ids(visibleMessages([[message(6)]], emptyChatLog(CHANNEL)))).toEqual([6]);
  });
});

describe('chat history paging', () => {
  it('asks for the messages before the oldest of the last page while the server has more', () => {
    expect(earlierPageParam({ discussion: [message(12), message(10), message(11)], hasMore: true })).toBe(10);
  });

  it('stops when the server has nothing older', () => {
    expect(earlierPageParam({ discussion: [message(3)], hasMore: false })).toBeUndefined();
    expect(earlierPageParam({ discussion: [], hasMore: true })).toBeUndefined();
  });
});
