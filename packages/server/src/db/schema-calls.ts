/** The tables of the dispatch console and its queue, statuses, private calls and Web Push. Part of schema.ts's Database. */
import type { ColumnType, Generated } from 'kysely';

/** A user's monitor list (migration 0014): its tiles in order. */
export interface MonitoredChannelsTable {
  user_id: number;
  channel_id: number;
  position: number;
  /** 0 to 100. */
  volume: number;
  muted: number;
}

/** The dispatch console's settings of a user (migration 0014). */
export interface DispatchPreferencesTable {
  user_id: number;
  /** 0 to 100: the level of the tiles that are not selected. */
  unselected_volume: number;
}

/** Channels whose voice the media server joins (migration 0014). */
export interface ChannelPatchesTable {
  id: Generated<number>;
  created_by: number | null;
  created_by_name: string;
  created_at: string;
}

export interface ChannelPatchMembersTable {
  patch_id: number;
  /** Unique: a channel is in one patch at a time. */
  channel_id: number;
}

/** A private call (migration 0014); its voice goes through its hidden channel. */
export interface PrivateCallsTable {
  id: Generated<number>;
  channel_id: number;
  caller_id: number | null;
  caller_name: string;
  callee_id: number | null;
  callee_name: string;
  /** protocol's PRIVATE_CALL_STATES. */
  state: string;
  started_at: string;
  answered_at: string | null;
  ended_at: string | null;
  /** A call to a functional alias (issue 59, migration 0039): the alias, and the holders it rings (JSON ids). */
  alias_id: number | null;
  alias_name: string | null;
  rings: string | null;
}

/** Who is in a ringing or answered private call (migration 0016): one row per person, so one call each. */
export interface CallPartiesTable {
  user_id: number;
  call_id: number;
}

/** The deployment's VAPID key pair (issue 34, migration 0017): one row, id 1, base64url. */
export interface PushKeysTable {
  id: number;
  public_key: string;
  private_key: string;
  created_at: string;
}

/** A browser's push subscription, for the user and the session that saved it (issue 34). */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  session_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  expiration_time: ColumnType<number | null, number | null | undefined, number | null>;
  language: 'en' | 'fr' | 'de';
  created_at: string;
  updated_at: string;
}

/** A member's request for dispatch (migration 0030, issue 49); times are ISO strings. */
export interface DispatchRequestsTable {
  id: Generated<number>;
  channel_id: number;
  channel_name: string;
  requester_id: number;
  requester_name: string;
  priority: string;
  note: string;
  state: string;
  created_at: string;
  /** The start of the current wait (null unless waiting). */
  waiting_since: string | null;
  /** The waits before the current one, added. */
  waited_before_ms: ColumnType<number, number | undefined, number>;
  held_by_id: number | null;
  held_by_name: string | null;
  transfer_to_id: number | null;
  transfer_to_name: string | null;
  transfer_until: string | null;
  answer: string | null;
  call_id: number | null;
  first_taken_at: string | null;
  /** When the waiting request is due for its reminder, and for expiry (null unless waiting). */
  remind_at: string | null;
  reminded_at: string | null;
  expire_at: string | null;
  /** Since when its member has been seen offline (the sweep's), null while it is online. */
  offline_since: string | null;
  ended_at: string | null;
  /** Closed (migration 0035): how it ended, the close note, the incident reference, who closed it. */
  outcome: Generated<string | null>;
  close_note: Generated<string | null>;
  reference: Generated<string | null>;
  closed_by_id: Generated<number | null>;
  closed_by_name: Generated<string | null>;
}

/** The organisation's statuses (migration 0030). */
export interface StatusesTable {
  id: Generated<number>;
  label_fr: string;
  label_en: string;
  label_de: string;
  color: string;
  position: number;
}
