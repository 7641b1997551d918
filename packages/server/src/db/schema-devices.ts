/** The latest device status of each user (migration 0042, issue 60). Times are ISO 8601 UTC strings. */

export interface DeviceStatusesTable {
  user_id: number;
  /** The session whose page sent it (no foreign key: the report outlives a session that ended). */
  session_id: number | null;
  /** The validated report (protocol's DeviceStatusReport), as JSON. */
  status: string;
  reported_at: string;
}
