/** The tables of geofences (issue 28, migration 0012) and of area channels (issue 59, migration 0040). */

import type { Generated } from 'kysely';

/**
 * A zone that alerts when a member crosses its edge (migration 0012). `shape` is the JSON of protocol's
 * GeofenceShape; without a channel it watches everyone.
 */
export interface GeofencesTable {
  id: Generated<number>;
  name: string;
  channel_id: number | null;
  shape: string;
  alert_on: 'enter' | 'exit' | 'both';
  active_until: string | null;
  created_at: string;
  updated_at: string;
  created_by: number | null;
  created_by_name: string;
}

/** The side of a fence's edge last decided for a member: 1 inside, 0 outside (migration 0012). */
export interface GeofenceStatesTable {
  user_id: number;
  geofence_id: number;
  inside: number;
  changed_at: string;
}

/** Who is in an area channel's zone now (migration 0040): since when, since when outside it, the last report. */
export interface AreaPresenceTable {
  channel_id: number;
  user_id: number;
  entered_at: string;
  /** The first report outside since the member was last inside; null while inside (the exit waits). */
  outside_since: string | null;
  last_report_at: string;
}
