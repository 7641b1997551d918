/** The tables of emergency alerts and worker safety (issues 14 and 60). Times are ISO 8601 UTC strings. */
import type { EmergencyReason } from '@talkgroup/protocol';
import type { ColumnType, Generated } from 'kysely';

/** An SOS (issue 14): open until an administrator acknowledges it. */
export interface EmergencyAlertsTable {
  id: Generated<number>;
  user_id: number | null;
  user_display_name: string;
  channel_id: number | null;
  channel_name: string | null;
  lat: number | null;
  lng: number | null;
  accuracy: number | null;
  created_at: string;
  acknowledged_by: number | null;
  acknowledged_by_name: string | null;
  acknowledged_at: string | null;
  /** Closed with how it turned out (migration 0031): 'real' or 'false' (a false alarm). */
  closed_at: Generated<string | null>;
  closed_by: Generated<number | null>;
  closed_by_name: Generated<string | null>;
  outcome: Generated<'real' | 'false' | null>;
  /** Why it was raised (migration 0041, issue 60): 'sos' for every earlier alert. */
  reason: ColumnType<EmergencyReason, EmergencyReason | undefined, EmergencyReason>;
  /** Who raised it for the member (a dispatcher), if not the member (migration 0041). */
  raised_by: ColumnType<number | null, number | null | undefined, number | null>;
  raised_by_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the member said "Je vais bien" after it (migration 0048, issue 70). */
  ok_at: Generated<string | null>;
}

/**
 * A member working alone (migration 0041, issue 60). `step`: 0 answered (the next check at `check_at`), 1 asked,
 * 2 reminded, 3 its dispatchers alerted, 4 an SOS raised; `step_at`: when the next step falls due (null once
 * escalated). Each step is taken by one conditional update on (step, step_at).
 */
export interface LoneWorkersTable {
  user_id: number;
  interval_seconds: number;
  grace_seconds: number;
  step: number;
  step_at: string | null;
  check_at: string;
  last_check_in: string;
  started_at: string;
  asked_at: ColumnType<string | null, string | null | undefined, string | null>;
  reminded_at: ColumnType<string | null, string | null | undefined, string | null>;
  missed_at: ColumnType<string | null, string | null | undefined, string | null>;
  escalated_at: ColumnType<string | null, string | null | undefined, string | null>;
  alert_id: ColumnType<number | null, number | null | undefined, number | null>;
}
