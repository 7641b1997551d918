/**
 * The last chat message a member has seen in each channel, kept on the device (localStorage): the channel
 * list counts what came after it (getchannelmessagelistForAdmin with afterId, which members may call for
 * their channels). A channel never opened here counts from the start.
 */
const SEEN_KEY = 'talkgroup.chatSeen';

function readAll(): Record<string, number> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(SEEN_KEY) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, number>) : {};
  } catch {
    return {};
  }
}

export function lastSeenMessage(channelId: number): number {
  const id = readAll()[String(channelId)];
  return typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : 0;
}

export function markMessagesSeen(channelId: number, messageId: number): void {
  if (messageId <= lastSeenMessage(channelId)) return;
  try {
    localStorage.setItem(SEEN_KEY, JSON.stringify({ ...readAll(), [String(channelId)]: messageId }));
  } catch {
    // storage disabled: every message counts as unread on the list
  }
}
