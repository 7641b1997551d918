/**
 * A media event (a page's reset, a spec client's offer, a plane switch) tells a channel's room once the channel
 * is read. Janus's events outlive a closing app: a read that fails then (the database gone) is logged, never a
 * rejection nobody hears (CI saw three, "driver has already been destroyed", after media-patch.test's last test).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChannelSummary } from '../src/channels/store.ts';
import type { ChannelCache } from '../src/realtime/channel-cache.ts';
import { withChannel } from '../src/realtime/media/start-media.ts';

const cache = (read: () => Promise<ChannelSummary | undefined>): ChannelCache => ({
  get: read,
  clear() {},
  stop() {},
});

describe('a media event reading its channel', () => {
  const unheard: unknown[] = [];
  const onUnhandled = (reason: unknown) => unheard.push(reason);
  beforeAll(() => void process.on('unhandledRejection', onUnhandled));
  afterAll(() => void process.off('unhandledRejection', onUnhandled));

  it('logs a read that fails, and leaves no rejection unheard', async () => {
    const warn = vi.fn();
    const use = vi.fn();
    const failed = Promise.reject(new Error('driver has already been destroyed'));
    withChannel(
      cache(() => failed),
      { warn } as never,
      7,
      use,
    );
    await vi.waitFor(() => expect(warn).toHaveBeenCalledOnce());
    // A turn of the event loop: an unhandled rejection would have been reported by now.
    await new Promise((resolve) => setImmediate(resolve));
    expect(use).not.toHaveBeenCalled();
    expect(warn.mock.calls[0]?.[0]).toMatchObject({ channelId: 7 });
    expect(unheard).toEqual([]);
  });

  it('hands the channel it read to the event', async () => {
    const channel = { id: 3, rtcSession: 'room-3' } as ChannelSummary;
    const use = vi.fn();
    withChannel(
      cache(async () => channel),
      { warn: vi.fn() } as never,
      3,
      use,
    );
    await vi.waitFor(() => expect(use).toHaveBeenCalledWith(channel));
  });
});
