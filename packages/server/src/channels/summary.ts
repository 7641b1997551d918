/** A channel as the server uses it (the channel store's rows, the hidden channel of a private call). */
import type { PreemptionMode, VideoAudience, VoiceMode } from '@talkgroup/protocol';
import type { Selectable } from 'kysely';
import type { ChannelsTable } from '../db/schema.ts';

export interface ChannelSummary {
  id: number;
  name: string;
  rtcSession: string;
  createdAt: string;
  /** One talker at a time (the floor); false: an open conference. */
  floorControl: boolean;
  /** Transmissions are recorded into the voice history (issue 15). */
  recording: boolean;
  /** Through the media server when there is one, or always peer to peer (issue 26). */
  voiceMode: VoiceMode;
  /** The geofence an area channel follows (issue 59); null: none. */
  areaGeofenceId: number | null;
  /** The hidden channel of a private call (issue 27): no list shows it, only its two members enter it. */
  hidden: boolean;
  /** An open regroup's channel (issue 59): it goes when the regroup ends. */
  temporary: boolean;
  /**
   * An ended regroup's channel (issue 70), kept for its history: leaving it is the regroup's end, not a change
   * of anyone's rights. Present only when true.
   */
  retired?: true;
  /** A press on a busy floor waits in the channel's queue (issue 59); false: it is refused. */
  floorQueue: boolean;
  /** What a higher talk priority does on a busy floor (issue 59). */
  preemption: PreemptionMode;
  /** Who watches its live video (issue 61): its dispatchers and the administrators, or every member. */
  videoAudience: VideoAudience;
}

export type ChannelRow = Selectable<ChannelsTable>;

/** channels.temporary of a regroup's channel once the regroup ended (migration 0038): kept, listed nowhere. */
export const TEMPORARY_ENDED = 2;

export function toSummary(row: ChannelRow): ChannelSummary {
  return {
    id: row.id,
    name: row.name,
    rtcSession: row.rtc_session,
    createdAt: row.created_at,
    floorControl: row.floor_control !== 0,
    recording: row.recording !== 0,
    voiceMode: row.voice_mode === 'mesh' ? 'mesh' : 'server',
    hidden: row.hidden === 1,
    // Absent before migration 0040 has run (a row read by an older query): none.
    areaGeofenceId: row.area_geofence_id ?? null,
    temporary: row.temporary === 1,
    ...(row.temporary === TEMPORARY_ENDED ? { retired: true as const } : {}),
    // Absent before migration 0037 has run (a row read by an older query): the defaults.
    floorQueue: row.floor_queue !== 0,
    preemption: row.preemption === 'queue' ? 'queue' : 'interrupt',
    // Absent before migration 0043 has run: the default.
    videoAudience: row.video_audience === 'channel' ? 'channel' : 'dispatch',
  };
}
