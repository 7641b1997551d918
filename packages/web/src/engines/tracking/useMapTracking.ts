/**
 * Everything a map's trails and zones share, for the toolbar beside the map (TrackingToolbar) and the layers in
 * it (TrackingLayers): whose trail is drawn and over which period, the replayed moment, the zones and what is
 * being drawn or reshaped. One hook per map: the room's, the dispatch console's.
 */
import { type GeofenceShape, may, type UserPosition } from '@talkgroup/protocol';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSession } from '../../api/session.ts';
import { useGeofences } from './api/geofences.ts';
import { useTrails } from './api/positions.ts';
import { periodStart, type TrailPeriod, trailTimes } from './trailMath.ts';

export interface TrackedMember {
  id: number;
  name: string;
  /** Whether its position is known: the replay loads the trails of those first. */
  located?: boolean;
}

export interface MapTrackingOptions {
  /** The channel the map is about: its zones are drawn and new ones belong to it. Absent: every zone one sees. */
  channelId?: number;
  /** The channels a new zone may belong to when the map is about several (the dispatch console). */
  channels?: Array<{ id: number; name: string }>;
  /** Whose trails may be followed (the map's members); a member without channel.trails follows only itself. */
  members: TrackedMember[];
}

export interface Trail {
  member: TrackedMember;
  points: UserPosition[];
  times: number[];
  truncated: boolean;
}

export type DrawMode = 'Circle' | 'Polygon';

/** The most trails a replay loads (a large channel's members are not fetched by the hundred every 30 s). */
const MAX_REPLAYED = 50;
/** How often the replay moves on while playing, and by which share of the period. */
const PLAY_TICK_MS = 250;
const PLAY_STEP = 1 / 200;

export function useMapTracking({ channelId, channels, members }: MapTrackingOptions) {
  const session = useSession();
  const role = session?.user?.role ?? 'member';
  const selfId = session?.user?.id;
  // On a channel's map the user stands as one of its members (an administrator holds these everywhere).
  const followsOthers = may({ role }, { member: true }, 'channel.trails');
  const draws = may({ role }, { member: true }, 'channel.geofences');
  const drawsForEveryone = may({ role }, null, 'channel.geofences');

  const followable = useMemo(
    () => (followsOthers ? members : members.filter((member) => member.id === selfId)),
    [followsOthers, members, selfId],
  );
  const [followedId, setFollowedId] = useState<number | null>(null);
  const [period, setPeriodState] = useState<TrailPeriod>('1h');
  const [from, setFrom] = useState(() => periodStart('1h'));
  const [replayAt, setReplayAt] = useState<number | null>(null);
  const [playing, setPlaying] = useState(false);
  const [drawing, setDrawing] = useState<DrawMode | null>(null);
  const [pendingShape, setPendingShape] = useState<GeofenceShape | null>(null);
  const [settingsOf, setSettingsOf] = useState<number | null>(null);
  const [reshaping, setReshaping] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);
  /** Set by the zones layer while a zone is reshaped: reads the shape as it is on the map now. */
  const readReshaped = useRef<(() => GeofenceShape | null) | null>(null);

  const drawn = useCallback((shape: GeofenceShape) => {
    setDrawing(null);
    setPendingShape(shape);
  }, []);

  const setPeriod = useCallback((next: TrailPeriod) => {
    setPeriodState(next);
    setFrom(periodStart(next));
    setReplayAt(null);
    setPlaying(false);
  }, []);

  const fences = useGeofences(channelId, draws);
  // The followed member's trail always; everyone's while a moment is replayed.
  const replaying = replayAt !== null;
  const ids = useMemo(() => followable.map((member) => member.id), [followable]);
  const replayed = useMemo(
    () =>
      new Set(
        [...followable]
          .sort((a, b) => Number(Boolean(b.located)) - Number(Boolean(a.located)))
          .slice(0, MAX_REPLAYED)
          .map((member) => member.id),
      ),
    [followable],
  );
  const queries = useTrails(ids, from, (userId) => userId === followedId || (replaying && replayed.has(userId)));
  const trails = useMemo(() => {
    const byId = new Map<number, Trail>();
    followable.forEach((member, index) => {
      const data = queries[index]?.data;
      if (!data) return;
      byId.set(member.id, { member, points: data.res, times: trailTimes(data.res), truncated: data.truncated });
    });
    return byId;
    // The query results are new objects only when their data changed.
  }, [followable, queries]);
  const followedIndex = followable.findIndex((member) => member.id === followedId);
  const followedQuery = followedIndex >= 0 ? queries[followedIndex] : undefined;

  const start = Date.parse(from);
  // The replay runs from the period's start to now.
  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => {
      const now = Date.now();
      setReplayAt((at) => {
        const next = (at ?? start) + (now - start) * PLAY_STEP;
        if (next >= now) {
          setPlaying(false);
          return null;
        }
        return next;
      });
    }, PLAY_TICK_MS);
    return () => clearInterval(timer);
  }, [playing, start]);

  return {
    channelId,
    channels,
    followable,
    followsOthers,
    /** May draw, reshape and delete zones here. */
    draws,
    drawsForEveryone,
    followedId,
    setFollowedId,
    followed: followedId !== null ? trails.get(followedId) : undefined,
    followedState: followedQuery
      ? { loading: followedQuery.isLoading, error: followedQuery.error }
      : { loading: false, error: null },
    period,
    setPeriod,
    /** The period's start (ISO time); it ends now. */
    from,
    start,
    trails,
    /** The replayed moment (ms), or null: live. */
    replayAt,
    setReplayAt: (at: number | null) => {
      setPlaying(false);
      setReplayAt(at);
    },
    playing,
    setPlaying: (on: boolean) => {
      if (on && replayAt === null) setReplayAt(start);
      setPlaying(on);
    },
    fences: fences.data?.res ?? [],
    drawing,
    setDrawing,
    pendingShape,
    /** A zone was drawn on the map: its settings are asked next (the dialog). */
    drawn,
    clearPending: () => setPendingShape(null),
    settingsOf,
    setSettingsOf,
    reshaping,
    setReshaping,
    readReshaped,
    deleting,
    setDeleting,
  };
}

export type MapTracking = ReturnType<typeof useMapTracking>;
