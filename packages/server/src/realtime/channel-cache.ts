/**
 * The channels real time asks about on a hot path (a press: is floor control on here?), kept in memory so that
 * a grant never waits for the database. Dropped when a channel changes or is deleted here (domain events) or
 * on another instance (the room guard's `revalidateRooms`), and after a short while in any case.
 */
import type { ChannelStore, ChannelSummary } from '../channels/store.ts';
import type { EventBus } from '../events.ts';

const KEEP_MS = 30_000;

export interface ChannelCache {
  get(channelId: number): Promise<ChannelSummary | undefined>;
  /** Forgets every channel (a change somewhere). */
  clear(): void;
  stop(): void;
}

export function channelCache(channels: ChannelStore, events: EventBus): ChannelCache {
  const known = new Map<number, { channel: ChannelSummary | undefined; until: number }>();
  /** Bumped by each clear: a read that started before a change must not keep what it read. */
  let generation = 0;
  const clear = () => {
    generation++;
    known.clear();
  };
  const offs = (['channelChanged', 'channelDeleted'] as const).map((name) => events.on(name, clear));
  return {
    async get(channelId) {
      const hit = known.get(channelId);
      if (hit && hit.until > Date.now()) return hit.channel;
      const asked = generation;
      const channel = await channels.byId(channelId);
      if (asked === generation) known.set(channelId, { channel, until: Date.now() + KEEP_MS });
      return channel;
    },
    clear,
    stop() {
      for (const off of offs) off();
      clear();
    },
  };
}
