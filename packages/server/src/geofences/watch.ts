/**
 * The crossing check, run on every reported position (issue 28). The fences that watch a member are those of
 * its channels and those without channel; they are kept in memory per channel (a report asks the database
 * nothing about them), dropped when a fence changes here or on another instance (`forget`, called by real
 * time) and after a minute in any case. The member's side of each fence's edge, last decided, is in the
 * database: a fix decides a side only past the edge by its accuracy (geometry.ts), and a crossing is a decided
 * side that differs from the recorded one, written by one atomic statement so that only one instance alerts.
 * Without a recorded side (a new fence, a new member), the member's previous position decides what it was.
 */
import type { GeofenceAlert } from '@talkgroup/protocol';
import type { ActivityStore } from '../activities/store.ts';
import type { EventBus } from '../events.ts';
import type { PositionStore, StoredPosition } from '../positions/store.ts';
import type { UserStore } from '../users/store.ts';
import { sideOf } from './geometry.ts';
import { type GeofenceStore, isActive, type WatchedFence } from './store.ts';

const KEEP_MS = 60_000;

export function geofenceWatch(deps: {
  store: GeofenceStore;
  positions: PositionStore;
  users: UserStore;
  activities: ActivityStore;
  events: EventBus;
}) {
  const { store, positions, users, activities, events } = deps;
  let cached: { byChannel: Map<number | null, WatchedFence[]>; until: number } | undefined;
  let loading: Promise<Map<number | null, WatchedFence[]>> | undefined;
  /** Bumped by each forget: a load that started before a change must not be kept. */
  let generation = 0;

  function forget(): void {
    generation++;
    cached = undefined;
    loading = undefined;
  }
  events.on('geofencesChanged', forget);
  // A deleted channel takes its fences with it (on delete cascade).
  events.on('channelDeleted', forget);

  async function fencesByChannel(): Promise<Map<number | null, WatchedFence[]>> {
    if (cached && cached.until > Date.now()) return cached.byChannel;
    if (!loading) {
      const asked = generation;
      loading = store.watched().then((fences) => {
        const byChannel = new Map<number | null, WatchedFence[]>();
        for (const fence of fences) byChannel.set(fence.channelId, [...(byChannel.get(fence.channelId) ?? []), fence]);
        if (asked === generation) cached = { byChannel, until: Date.now() + KEEP_MS };
        loading = undefined;
        return byChannel;
      });
      loading.catch(() => {
        loading = undefined;
      });
    }
    return loading;
  }

  /** The active fences that watch a member of these channels. */
  async function watching(channelIds: number[]): Promise<WatchedFence[]> {
    const byChannel = await fencesByChannel();
    const now = Date.now();
    return [null, ...channelIds].flatMap((id) => (byChannel.get(id) ?? []).filter((fence) => isActive(fence, now)));
  }

  return {
    forget,

    /**
     * Checks a member's new position against the fences that watch it; each crossing is pushed
     * (`geofenceCrossed`) and logged (geofence_enter / geofence_exit). Returns the alerts.
     */
    async check(userId: number, position: StoredPosition, channelIds: number[]): Promise<GeofenceAlert[]> {
      const fences = await watching(channelIds);
      if (fences.length === 0) return [];
      const recorded = await store.sides(
        userId,
        fences.map((fence) => fence.id),
      );
      let previous: Promise<StoredPosition | undefined> | undefined;
      const crossings: Array<{ fence: WatchedFence; kind: 'enter' | 'exit' }> = [];
      for (const fence of fences) {
        const side = sideOf(fence.shape, position);
        if (side === undefined) continue;
        const inside = side === 'inside';
        const was = recorded.get(fence.id);
        if (was === inside) continue;
        if (was !== undefined) {
          if (await store.flipSide(userId, fence.id, was, position.createdAt))
            crossings.push({ fence, kind: inside ? 'enter' : 'exit' });
          continue;
        }
        previous ??= positions.before(userId, position);
        const before = await previous;
        const sideBefore = before ? sideOf(fence.shape, before) : undefined;
        const first = await store.recordFirstSide(userId, fence.id, inside, position.createdAt);
        if (first && sideBefore !== undefined && sideBefore !== side)
          crossings.push({ fence, kind: inside ? 'enter' : 'exit' });
      }
      const alerting = crossings.filter(({ fence, kind }) => fence.alertOn === 'both' || fence.alertOn === kind);
      if (alerting.length === 0) return [];
      const user = await users.row(userId);
      if (!user) return [];
      const alerts: GeofenceAlert[] = [];
      for (const { fence, kind } of alerting) {
        const alert: GeofenceAlert = {
          geofenceId: fence.id,
          name: fence.name,
          channelId: fence.channelId,
          userId,
          userName: user.display_name,
          kind,
          lat: position.lat,
          lng: position.lng,
          at: position.createdAt,
        };
        events.emit('geofenceCrossed', { alert });
        alerts.push(alert);
        await activities.record(kind === 'enter' ? 'geofence_enter' : 'geofence_exit', {
          userId,
          user: { first_name: user.first_name, last_name: user.last_name, display_name: user.display_name },
          channelId: fence.channelId,
          geofence: { id: fence.id, name: fence.name },
        });
      }
      return alerts;
    },
  };
}

export type GeofenceWatch = ReturnType<typeof geofenceWatch>;
