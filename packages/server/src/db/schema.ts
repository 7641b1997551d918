/** The tables, one interface each; Kysely types every query from this. Times are ISO 8601 UTC strings. */

import type { ParticipationMode, Role } from '@talkgroup/protocol';
import type { ColumnType, Generated, Kysely } from 'kysely';

export interface UsersTable {
  id: Generated<number>;
  first_name: string;
  last_name: string;
  identifier: string;
  pseudo: string;
  display_name: string;
  phone_number: string;
  /** scrypt$N$r$p$salt$hash, see auth/passwords.ts */
  password_hash: string;
  map_right: number;
  /** A role of protocol's ROLE_RULES; plain text (no list of allowed values), so that a new role is a new row there. */
  role: Role;
  photo_url: string | null;
  created_at: string;
  /**
   * The names the paged users list searches (migration 0009): searchTextOf(first name, last name, login,
   * pseudo, display name), folded. Written by the users store with every name change.
   */
  search_text: ColumnType<string, string | undefined, string>;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  created_at: string;
  expires_at: string;
  /** Last request made with it (idle timeout); null until its first use after sign-in. */
  last_seen_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** What an administrator did (issue 16): written in the transaction of the change, never pruned. */
export interface AuditLogTable {
  id: Generated<number>;
  created_at: string;
  actor_id: number | null;
  actor_name: string;
  /** `user.create`, `channel.update`, `membership.add`, ... */
  action: string;
  target_type: string;
  target_id: number | null;
  target_name: string | null;
  /** JSON: { field: { before, after } } of the changed fields; never a password. */
  changes: string | null;
  address: string | null;
  request_id: string | null;
}

export interface ChannelsTable {
  id: Generated<number>;
  name: string;
  rtc_session: string;
  created_at: string;
  /** 1: one talker at a time (the floor); 0: an open conference (migration 0003). */
  floor_control: Generated<number>;
  /** 'server' (through the media server when there is one) or 'mesh' (always peer to peer). */
  voice_mode: Generated<string>;
  /** 1: transmissions are recorded into the voice history; 0: not (migration 0004). */
  recording: Generated<number>;
}

export interface ChannelMembersTable {
  channel_id: number;
  user_id: number;
  /** 1: the member may take the channel's floor; 0: listen-only (it hears and chats). */
  can_talk: ColumnType<number, number | undefined, number>;
  created_at: string;
}

export interface UserSocketsTable {
  id: Generated<number>;
  user_id: number;
  channel_id: number | null;
  socket_id: string;
  /** The server process that holds the socket, so that a restart removes its stale rows. */
  instance_id: string;
  mic_state: number;
  /** How the socket is in the channel: 'talk' or 'listen' (a row without channel says 'talk'). */
  mode: ColumnType<ParticipationMode, ParticipationMode | undefined, ParticipationMode>;
  created_at: string;
}

export interface UserPositionsTable {
  id: Generated<number>;
  user_id: number;
  lat: number;
  lng: number;
  accuracy: number | null;
  created_at: string;
}

export interface ActivitiesTable {
  id: Generated<number>;
  type: string;
  user_id: number | null;
  user_first_name: string | null;
  user_last_name: string | null;
  user_display_name: string | null;
  channel_id: number | null;
  channel_name: string | null;
  created_at: string;
  /** channel_talk: how long the transmission lasted (migration 0003). */
  duration_ms: Generated<number | null>;
}

/** One row (id 1): how many activities there are, kept by triggers (migration 0002). */
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
}

export interface ActivityCountTable {
  id: number;
  n: number;
}

/**
 * What each write changed in the whole lists (migration 0008, kept by triggers): kind 1 a user of getAllUsers,
 * 2 a channel of getAllChannels (its row or members), 3 a channel's connected count or latest activity. The
 * position columns (SQLite: id; PostgreSQL: txid) are read through sql (lists/change-log.ts).
 */
export interface ListChangesTable {
  kind: number;
  entity_id: number;
}

export interface MessagesTable {
  id: Generated<number>;
  channel_id: number;
  user_id: number | null;
  user_display_name: string;
  text_msg: string;
  file_path: string | null;
  file_name: string | null;
  file_mime: string | null;
  created_at: string;
}

export interface TalkBurstsTable {
  id: Generated<number>;
  user_id: number | null;
  channel_id: number | null;
  channel_name: string;
  started_at: string;
  ended_at: string | null;
}

export interface DevicesTable {
  id: Generated<number>;
  display_name: string;
  mac_address: string;
  type: string;
  manufacturer: string;
  product_ref: string;
  created_at: string;
}

export interface MaterialTypesTable {
  id: Generated<number>;
  name: string;
  created_at: string;
}

/** A recorded transmission (migration 0004); the audio is DATA_DIR/voice/<channel_id>/<file_name>. */
export interface VoiceMessagesTable {
  id: Generated<number>;
  channel_id: number;
  user_id: number | null;
  user_display_name: string;
  file_name: string;
  mime: 'audio/webm' | 'audio/ogg';
  size_bytes: number;
  duration_ms: number;
  client_id: string | null;
  /** When the transmission started. */
  created_at: string;
  uploaded_at: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  channels: ChannelsTable;
  channel_members: ChannelMembersTable;
  user_sockets: UserSocketsTable;
  user_positions: UserPositionsTable;
  activities: ActivitiesTable;
  activity_count: ActivityCountTable;
  list_changes: ListChangesTable;
  emergency_alerts: EmergencyAlertsTable;
  messages: MessagesTable;
  talk_bursts: TalkBurstsTable;
  devices: DevicesTable;
  material_types: MaterialTypesTable;
  voice_messages: VoiceMessagesTable;
  audit_log: AuditLogTable;
}

export type Db = Kysely<Database>;
