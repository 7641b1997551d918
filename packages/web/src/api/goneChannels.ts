/**
 * The channels this page knows are gone (issue 70: an ended regroup's channel, told by `regroup_ended` before the
 * switch back). A page still showing it for a moment would ask the server about it and be refused (403): the
 * calls that name such a channel (`channelId`) are answered here instead, as the server would for a channel that
 * is no more, and nothing is sent. Kept for the page's life: a retired channel never comes back.
 */
const gone = new Set<number>();

export function markChannelGone(channelId: number): void {
  gone.add(channelId);
}

/** Whether a call's `channelId` names a channel known to be gone. */
export function isChannelGone(channelId: unknown): boolean {
  return typeof channelId === 'number' && gone.has(channelId);
}
