/**
 * What happens to the queue with time alone (issue 49), checked on every instance by a deadline sweep
 * (process/deadline-sweep.ts, every DEADLINE_SWEEP_MS): a waiting
 * request is recalled once it has waited DISPATCH_REMIND_SECONDS (`remindedAt`, and a Web Push to the dispatchers
 * not on the console) and expires after DISPATCH_EXPIRE_MINUTES; a transfer nobody answered within
 * DISPATCH_TRANSFER_SECONDS comes back to its holder; a request whose member has been offline
 * DISPATCH_ABANDON_SECONDS, or who may no longer read its channel, is abandoned. Every change is a conditional
 * write: of two instances sweeping at once, one makes it and pushes it.
 */
import type { ChannelAccess } from '../channels/access.ts';
import type { Config } from '../config/config.ts';
import { type Deadlines, deadlineSweep } from '../process/deadline-sweep.ts';
import type { UserStore } from '../users/store.ts';
import type { DispatchQueue } from './queue.ts';
import type { DispatchQueueStore } from './queue-store.ts';

interface DispatchQueueDeps {
  store: DispatchQueueStore;
  queue: DispatchQueue;
  access: ChannelAccess;
  users: UserStore;
  limits: Config['dispatch'];
  /** A failure that must not fail the step (a private call that could not ring, a sweep that failed). */
  onError: (error: unknown, what: string) => void;
  now?: () => number;
}

/** The queue's deadlines: a look every DEADLINE_SWEEP_MS (2 s) lands a reminder within 5 s of its time. */
export function dispatchQueueDeadlines(deps: DispatchQueueDeps): Deadlines {
  const { store, queue, limits } = deps;
  const now = deps.now ?? Date.now;

  async function remindAndExpire(at: number): Promise<void> {
    const due = await store.due(at);
    const reminded = [];
    for (const row of due.remind) {
      const moved = await store.move(row.id, ['waiting'], { reminded_at: new Date(at).toISOString(), remind_at: null });
      if (moved?.reminded_at && moved.state === 'waiting') reminded.push(moved);
    }
    if (reminded.length > 0) await queue.publish(reminded, { reminded: true });
    // Each still due when written: a request taken and sent back meanwhile waits anew, a transfer made again
    // meanwhile has its own time.
    for (const row of due.expire) await queue.end(row, 'expired', row.requester_id, ['waiting'], { expiredAt: at });
    // Unanswered: back to the dispatcher who transferred it.
    for (const row of due.transfer) {
      const back = await store.move(
        row.id,
        ['transferring'],
        { state: 'taken', transfer_to_id: null, transfer_to_name: null, transfer_until: null },
        { transferOverAt: at },
      );
      if (back) await queue.publish([back]);
    }
  }

  /** Members gone for good, or no longer allowed in the channel. */
  async function abandonGone(at: number): Promise<void> {
    const open = await store.open();
    if (open.length === 0) return;
    const online = await store.online([...new Set(open.map((row) => row.requester_id))]);
    for (const row of open) {
      const user = await deps.users.row(row.requester_id);
      const reader = user && { userId: user.id, role: user.role, mapRight: user.map_right === 1 };
      const allowed =
        reader !== undefined &&
        user?.disabled_at === null &&
        (await deps.access.may(reader, row.channel_id, 'channel.read'));
      if (!allowed) {
        await queue.end(row, 'abandoned', row.requester_id);
        continue;
      }
      if (online.has(row.requester_id)) {
        if (row.offline_since) await store.setOfflineSince(row.id, null);
      } else if (!row.offline_since) await store.setOfflineSince(row.id, new Date(at).toISOString());
      else if (at - Date.parse(row.offline_since) >= limits.abandonMs)
        await queue.end(row, 'abandoned', row.requester_id);
    }
  }

  async function sweep(): Promise<void> {
    const at = now();
    await remindAndExpire(at);
    await abandonGone(at);
  }

  // One pass now on sweepNow (tests, and a membership change); none at start: each due step keeps its time.
  return { what: 'sweeping the dispatch queue', takeDue: sweep, takeAtStart: false };
}

export function dispatchQueueSweep(deps: DispatchQueueDeps) {
  return deadlineSweep(dispatchQueueDeadlines(deps), deps.onError);
}

export type DispatchQueueSweep = ReturnType<typeof dispatchQueueSweep>;
