/**
 * Area channels (issue 59): a channel that follows a zone takes in whoever, with map access, reports a position
 * inside it, at that report (well within the 20 s the issue allows), as a member that listens and may talk; its
 * /talk hears of it as of an administrator's edit (`membershipChanged`). A member who reports positions outside
 * for AREA_EXIT_SECONDS (60), or nothing for AREA_SILENCE_MINUTES (15), is taken out again by the sweep, which
 * runs on every instance every few seconds; its rows are in the database, so a restart or another instance takes
 * the exits over, and each exit is one conditional delete (store.ts), so it happens once. A membership an
 * administrator made is never taken back (only `via_area` ones are). Entries and exits are activities
 * (area_enter, area_exit), which the dispatch console's tiles follow.
 *
 * An area is a place, not a power (issue 69): its membership gives a member's rights only, whatever the role (no
 * dispatcher's right over those in the zone), and reads the channel's history from its entry on, not before.
 *
 * Which side of the zone's edge a fix decides is geofences/geometry.ts's `sideOf`, as for the crossing alerts: a
 * fix wandering on the edge within its accuracy decides nothing (it only counts as a report).
 */
import type { ActivityStore } from '../activities/store.ts';
import type { AreaTimings } from '../config/areas.ts';
import type { EventBus } from '../events.ts';
import { sideOf } from '../geofences/geometry.ts';
import { isActive } from '../geofences/store.ts';
import type { StoredPosition } from '../positions/store.ts';
import { periodicSweep } from '../process/periodic-sweep.ts';
import type { UserStore } from '../users/store.ts';
import type { AreaChannel, AreaStore, DuePresence } from './store.ts';

/** How long the zones are kept in memory: another instance's change of a channel's zone shows within this. */
const KEEP_MS = 10_000;

export function areaChannels(deps: {
  store: AreaStore;
  users: UserStore;
  activities: ActivityStore;
  events: EventBus;
  timings: AreaTimings;
  /** A failure that must end nothing but the step (a sweep that failed). */
  onError: (error: unknown, what: string) => void;
  now?: () => number;
}) {
  const { store, users, activities, events, timings } = deps;
  const now = deps.now ?? Date.now;
  let cached: { areas: AreaChannel[]; until: number } | undefined;
  let generation = 0;

  function forget(): void {
    generation++;
    cached = undefined;
  }
  for (const name of ['geofencesChanged', 'channelChanged', 'channelDeleted'] as const) events.on(name, forget);

  async function areas(): Promise<AreaChannel[]> {
    if (cached && cached.until > now()) return cached.areas;
    const asked = generation;
    const read = await store.channels();
    if (asked === generation) cached = { areas: read, until: now() + KEEP_MS };
    return read;
  }

  async function record(type: 'area_enter' | 'area_exit', area: AreaChannel | undefined, row: DuePresence) {
    await activities.record(type, {
      userId: row.userId,
      channelId: row.channelId,
      ...(area ? { channelName: area.channelName, geofence: { id: area.fence.id, name: area.fence.name } } : {}),
    });
  }

  /** Ends a stay read as due: the membership the area made goes; told once, by whoever ended it. */
  async function leave(row: DuePresence, area: AreaChannel | undefined): Promise<void> {
    if (!(await store.leave(row))) return;
    const parted = await store.part(row.channelId, row.userId);
    await record('area_exit', area, row);
    if (parted) events.emit('membershipChanged', { userIds: [row.userId] });
  }

  /** A first position inside: the stay begins, and the membership unless there is one. False: already in. */
  async function enter(area: AreaChannel, userId: number, at: string): Promise<boolean> {
    if (!(await store.enter(area.channelId, userId, at))) return false;
    // Its history from now (the membership's making), not from the fix that found it inside (up to the silence's
    // length ago when the zone was just given).
    const joined = await store.join(area.channelId, userId, at, new Date(now()).toISOString());
    await record('area_enter', area, { channelId: area.channelId, userId, lastReportAt: at, outsideSince: null });
    if (joined) events.emit('membershipChanged', { userIds: [userId] });
    return true;
  }

  async function sweep(): Promise<void> {
    const at = now();
    const due = await store.due(
      new Date(at - timings.exitMs).toISOString(),
      new Date(at - timings.silenceMs).toISOString(),
      new Date(at).toISOString(),
    );
    if (due.length === 0) return;
    // The zone each channel followed, for the activity (a channel that follows none any more has none).
    const byChannel = new Map((await store.channels()).map((area) => [area.channelId, area]));
    for (const row of due) await leave(row, byChannel.get(row.channelId));
  }

  // A database outage fails every pass: said once until a pass succeeds again (process/periodic-sweep.ts).
  const sweeper = periodicSweep({
    everyMs: timings.sweepMs,
    what: 'sweeping the area channels',
    pass: sweep,
    onError: deps.onError,
  });

  return {
    forget,
    sweepNow: sweeper.sweepNow,

    /** Checks a reported position against every area channel's zone: entries now, exits by the sweep. */
    async report(userId: number, position: StoredPosition): Promise<void> {
      const zones = (await areas()).filter((area) => isActive(area.fence, now()));
      if (zones.length === 0) return;
      const user = await users.row(userId);
      // Map access is what puts a member on the map, and in an area (issue 59); the sweep ends the stays of
      // those who lose it.
      if (user?.map_right !== 1 || user.disabled_at !== null) return;
      const at = position.createdAt;
      const stays = await store.staysOf(userId);
      for (const area of zones) {
        const side = sideOf(area.fence.shape, position);
        if (side === 'inside' && (await enter(area, userId, at))) continue;
        // Outside a zone it is not in: nothing to write.
        if (side === 'inside' || stays.has(area.channelId))
          await store.report(area.channelId, userId, at, side === undefined ? undefined : side === 'inside');
      }
    },

    /**
     * A channel's zone was given, changed or taken away: everyone in the old one leaves it now, and those whose
     * latest position (reported within the silence's length) is inside the new one enter it now, as a dispatcher
     * expects of a group that follows a place.
     */
    async zoneChanged(channelId: number, previous: AreaChannel | undefined): Promise<void> {
      forget();
      for (const row of await store.ofChannel(channelId)) await leave(row, previous);
      const area = (await store.channels()).find((candidate) => candidate.channelId === channelId);
      if (!area || !isActive(area.fence, now())) return;
      const since = new Date(now() - timings.silenceMs).toISOString();
      for (const { userId, position } of await store.recentlyReported(since))
        if (sideOf(area.fence.shape, position) === 'inside') await enter(area, userId, position.createdAt);
    },

    /** Who is in a channel's zone now (getAreaMembers). */
    members: (channelId: number) => store.members(channelId),

    /** An administrator added these members by hand: the area never takes them back. */
    keepByHand: (channelId: number, userIds: number[]) => store.keepByHand(channelId, userIds),

    /** The channels that follow this zone now (read afresh: a change of it is decided on them). */
    async followingZone(geofenceId: number): Promise<AreaChannel[]> {
      return (await store.channels()).filter((area) => area.fence.id === geofenceId);
    },

    /** The channel's zone as the reports see it now (undefined: it follows none). */
    async areaOf(channelId: number): Promise<AreaChannel | undefined> {
      return (await store.channels()).find((area) => area.channelId === channelId);
    },

    start: sweeper.start,
    stop: sweeper.stop,
  };
}

export type AreaChannels = ReturnType<typeof areaChannels>;
