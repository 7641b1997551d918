/** The tables, one interface each; Kysely types every query from this. Times are ISO 8601 UTC strings. */

import type { ParticipationMode, Role } from '@talkgroup/protocol';
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { AliasesTable, AliasHoldersTable } from './schema-aliases.ts';
import type {
  CallPartiesTable,
  ChannelPatchesTable,
  ChannelPatchMembersTable,
  DispatchPreferencesTable,
  DispatchRequestsTable,
  MonitoredChannelsTable,
  PrivateCallsTable,
  PushKeysTable,
  PushSubscriptionsTable,
  StatusesTable,
} from './schema-calls.ts';
import type { DeviceStatusesTable } from './schema-devices.ts';
import type { GatewayCallsTable, GatewayChannelsTable, GatewaysTable } from './schema-gateways.ts';
import type { AreaPresenceTable, GeofenceStatesTable, GeofencesTable } from './schema-geofences.ts';
import type { RegroupMembersTable, RegroupsTable, SelectedChannelsTable } from './schema-regroups.ts';
import type { EmergencyAlertsTable, LoneWorkersTable } from './schema-safety.ts';
import type {
  IdentityLinksTable,
  IdentityRequestsTable,
  OidcSignInsTable,
  PasskeysTable,
  RecoveryCodesTable,
  SignInMethod,
  TotpSecretsTable,
  WebauthnChallengesTable,
} from './schema-sign-in.ts';
import type { VideosTable } from './schema-videos.ts';

export type * from './schema-aliases.ts';
export type * from './schema-calls.ts';
export type * from './schema-devices.ts';
export type * from './schema-gateways.ts';
export type * from './schema-geofences.ts';
export type * from './schema-regroups.ts';
export type * from './schema-safety.ts';
export type * from './schema-sign-in.ts';
export type * from './schema-videos.ts';

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
  /** When an administrator disabled the account (migration 0022); null while it is in use. */
  disabled_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: Busy (migration 0023): transmissions go to the member's missed list instead of playing. */
  busy: ColumnType<number, number | undefined, number>;
  /** The member's status (migration 0030): one of `statuses`, when and by whom it was set. */
  status_id: ColumnType<number | null, number | null | undefined, number | null>;
  status_at: ColumnType<string | null, string | null | undefined, string | null>;
  status_by_id: ColumnType<number | null, number | null | undefined, number | null>;
  status_by_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: the account a SIP gateway talks as (migration 0033): never signs in, left out of the users lists. */
  gateway: ColumnType<number, number | undefined, number>;
  /** Talk priority 1..9 (migration 0036); null: the role's default (protocol's talk-priority.ts). */
  talk_priority: ColumnType<number | null, number | null | undefined, number | null>;
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
  /** How it was opened (issue 38). */
  method: ColumnType<SignInMethod, SignInMethod | undefined, SignInMethod>;
  /** The browser's User-Agent at sign-in (cut to 300 characters), and the address it came from. */
  user_agent: string | null;
  address: string | null;
  /** 1: opened by a password while the user's role needs a second factor it lacks (migration 0019). */
  second_factor_pending: ColumnType<number, number | undefined, number>;
  /** When the owner last proved it is them in this session (sign-in, confirmIdentity; migration 0025). */
  confirmed_at: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** 1: the hidden channel of a private call (migration 0014), which no list shows; 0: a channel. */
  hidden: Generated<number>;
  /**
   * Issue 59 (migration 0038): 1 an open regroup's channel (`temporary: true` in the lists); 2 an ended regroup's,
   * kept for its history, which no list shows; 0 a channel.
   */
  temporary: Generated<number>;
  /** The geofence an area channel follows (migration 0040, issue 59); null: none. */
  area_geofence_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** 1: a press on a busy floor waits in the channel's queue; 0: it is refused (migration 0037, issue 59). */
  floor_queue: Generated<number>;
  /** 'interrupt': a higher talk priority takes the floor; 'queue': it goes first in the queue (migration 0037). */
  preemption: Generated<string>;
  /** 'dispatch' (dispatchers and administrators watch its live video) or 'channel' (every member; migration 0043). */
  video_audience: Generated<string>;
}

export interface ChannelMembersTable {
  channel_id: number;
  user_id: number;
  /** 1: the member may take the channel's floor; 0: listen-only (it hears and chats). */
  can_talk: ColumnType<number, number | undefined, number>;
  created_at: string;
  /** 1: made by the channel's area, which takes it back (migration 0040); 0: by hand, never taken back. */
  via_area: ColumnType<number, number | undefined, number>;
  /**
   * 1: gives a member's rights only, whatever the user's role (migration 0045, issue 69): an area's membership, a
   * regroup's for anyone but its creator.
   */
  member_rights_only: ColumnType<number, number | undefined, number>;
  /** An area's membership: the channel's history is read from this time on (null: all of it). */
  history_from: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** geofence_enter, geofence_exit: the fence (its id may outlive it) and its name (migration 0012). */
  geofence_id: Generated<number | null>;
  geofence_name: Generated<string | null>;
  /** dispatch_*: how long the request had waited, and been handled, at that step (migration 0030). */
  waited_ms: Generated<number | null>;
  handled_ms: Generated<number | null>;
  /** JSON: a dispatch step's request, requester, priority, transfer target; a status change's label (migration 0030). */
  detail: Generated<string | null>;
}

/** One row (id 1): how many activities there are, kept by triggers (migration 0002). */
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
  /** How the channel's voice went when the floor was granted (migration 0016): 'mesh' or 'server'; null before. */
  plane: string | null;
  /** The floor grant's id, as its answer carried it (migration 0029; an all call's channels share one); null before. */
  grant_id: string | null;
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
  mime: 'audio/webm' | 'audio/ogg' | 'audio/mp4';
  size_bytes: number;
  duration_ms: number;
  client_id: string | null;
  /** The floor grant (talk burst) an uploaded transmission belongs to, used once (migration 0016). */
  talk_burst_id: number | null;
  /** When the transmission started. */
  created_at: string;
  uploaded_at: string;
}

/** A transmission a member heard, live or played later (migration 0023). */
export interface VoiceHeardTable {
  voice_message_id: number;
  user_id: number;
  heard_at: string;
  /** 1: heard while it was said; 0: played later from the missed list (migration 0031). */
  live: ColumnType<number, number | undefined, number>;
}

/** The most people connected at once in a minute (migration 0031): `minute` its start, `peak_at` first reached. */
export interface PresenceSamplesTable {
  minute: string;
  connected: number;
  peak_at: string;
}

/** A channel a member took out of its scan (migration 0024): no row, scanned. */
export interface ScanOffTable {
  user_id: number;
  channel_id: number;
}

/** The organisation's settings (migration 0014): a JSON value per key. */
export interface SettingsTable {
  key: string;
  value: string;
}

/** A big user import run as a job (issue 29, migration 0015). */
export interface ImportJobsTable {
  id: Generated<number>;
  kind: 'users';
  actor_id: number | null;
  state: 'queued' | 'running' | 'done' | 'failed';
  total: number;
  done: ColumnType<number, number | undefined, number>;
  /** JSON: the import's mode, createChannels and the channel ids its rows name, by name. */
  options: string;
  /** JSON: { unknownChannels, createdChannels }. */
  channels: string;
  error: string | null;
  /** The instance running it (config.instanceId) and when it last said so. */
  runner: string | null;
  heartbeat_at: string | null;
  created_at: string;
  finished_at: string | null;
}

/** A job's row: `outcome` null while it waits (data holds its password), then its group (data without it). */
export interface ImportJobRowsTable {
  job_id: number;
  position: number;
  action: 'add' | 'update' | 'report';
  outcome: 'added' | 'alreadyExisting' | 'notAdded' | 'updated' | null;
  data: string;
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
  voice_heard: VoiceHeardTable;
  scan_off: ScanOffTable;
  audit_log: AuditLogTable;
  geofences: GeofencesTable;
  geofence_states: GeofenceStatesTable;
  area_presence: AreaPresenceTable;
  monitored_channels: MonitoredChannelsTable;
  dispatch_preferences: DispatchPreferencesTable;
  channel_patches: ChannelPatchesTable;
  channel_patch_members: ChannelPatchMembersTable;
  private_calls: PrivateCallsTable;
  call_parties: CallPartiesTable;
  dispatch_requests: DispatchRequestsTable;
  statuses: StatusesTable;
  settings: SettingsTable;
  presence_samples: PresenceSamplesTable;
  import_jobs: ImportJobsTable;
  import_job_rows: ImportJobRowsTable;
  push_keys: PushKeysTable;
  push_subscriptions: PushSubscriptionsTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  identity_links: IdentityLinksTable;
  oidc_sign_ins: OidcSignInsTable;
  identity_requests: IdentityRequestsTable;
  totp_secrets: TotpSecretsTable;
  recovery_codes: RecoveryCodesTable;
  gateways: GatewaysTable;
  gateway_channels: GatewayChannelsTable;
  gateway_calls: GatewayCallsTable;
  regroups: RegroupsTable;
  regroup_members: RegroupMembersTable;
  selected_channels: SelectedChannelsTable;
  aliases: AliasesTable;
  alias_holders: AliasHoldersTable;
  device_statuses: DeviceStatusesTable;
  lone_workers: LoneWorkersTable;
  videos: VideosTable;
}

export type Db = Kysely<Database>;
