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
  /** When an administrator disabled the account (migration 0022); null while it is in use. */
  disabled_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: Busy (migration 0023): transmissions go to the member's missed list instead of playing. */
  busy: ColumnType<number, number | undefined, number>;
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

/** A user's TOTP secret (migration 0019): sealed at rest; the last accepted time step, so a code works once. */
export interface TotpSecretsTable {
  user_id: number;
  secret: string;
  confirmed: ColumnType<number, number | undefined, number>;
  last_step: number | null;
  created_at: string;
  confirmed_at: string | null;
}

/** A recovery code of a user with TOTP on (migration 0019): its SHA-256 only; used once. */
export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

/** A user's WebAuthn credential (issue 38). */
export interface PasskeysTable {
  id: Generated<number>;
  user_id: number;
  /** base64url, as the browser names it. */
  credential_id: string;
  /** COSE public key, base64url. */
  public_key: string;
  /** bigint: PostgreSQL gives it as a string (read it with Number). */
  counter: ColumnType<number | string, number, number>;
  /** JSON array of the transports the authenticator named (usb, nfc, ble, internal, hybrid). */
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  /** 1 once the authenticator verified the user (UV) at registration or a sign-in: then it is a second factor. */
  user_verified: Generated<number>;
}

/** A WebAuthn challenge handed out: good once, until expires_at. */
export interface WebauthnChallengesTable {
  id: Generated<number>;
  challenge: string;
  user_id: number | null;
  expires_at: string;
}

/** How a session was opened: a password (with its second factor, if any), a passkey, an identity provider. */
export type SignInMethod = 'password' | 'passkey' | 'sso';

/** An account's identity at an OpenID Connect provider (issue 38); user_id null once the account is deleted. */
export interface IdentityLinksTable {
  id: Generated<number>;
  issuer: string;
  /** The provider's `sub`. */
  subject: string;
  user_id: number | null;
  /** The email the provider gave at the last sign-in (shown to administrators). */
  email: string | null;
  created_at: string;
  last_used_at: string | null;
}

/** One step of a sign-in through the provider: its `state` (PKCE verifier, nonce), then its one-time code. */
export interface OidcSignInsTable {
  id: Generated<number>;
  /** `intent`: a link or a confirmation asked by a signed-in session, before its state (migration 0025). */
  kind: 'intent' | 'state' | 'code';
  /** SHA-256 of the state or of the code; neither is stored. */
  key_hash: string;
  code_verifier: string | null;
  nonce: string | null;
  user_id: number | null;
  expires_at: string;
  /** What the sign-in is for (migration 0025); null: signing in. */
  purpose: ColumnType<OidcPurpose | null, OidcPurpose | null | undefined, OidcPurpose | null>;
  /** The session that asked to link or confirm. */
  session_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** SHA-256 of the browser binding cookie set at the start; the code is redeemed only with it. */
  binding_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: the provider said a second factor was used (OIDC_MFA_AMR / OIDC_MFA_ACR). */
  mfa: ColumnType<number, number | undefined, number>;
}

/** What a sign-in through the provider is for: signing in, linking it to one's account, confirming it is one. */
export type OidcPurpose = 'signin' | 'link' | 'confirm';

/** A provider identity refused because an unlinked account has its email (migration 0025): an administrator decides. */
export interface IdentityRequestsTable {
  id: Generated<number>;
  issuer: string;
  subject: string;
  email: string;
  name: string;
  /** The account whose login is that email. */
  user_id: number;
  created_at: string;
  last_seen_at: string;
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
  /** geofence_enter, geofence_exit: the fence (its id may outlive it) and its name (migration 0012). */
  geofence_id: Generated<number | null>;
  geofence_name: Generated<string | null>;
}

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
  /** How the channel's voice went when the floor was granted (migration 0016): 'mesh' or 'server'; null before. */
  plane: string | null;
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
}

/** A channel a member took out of its scan (migration 0024): no row, scanned. */
export interface ScanOffTable {
  user_id: number;
  channel_id: number;
}

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
}

/** Who is in a ringing or answered private call (migration 0016): one row per person, so one call each. */
export interface CallPartiesTable {
  user_id: number;
  call_id: number;
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
  monitored_channels: MonitoredChannelsTable;
  dispatch_preferences: DispatchPreferencesTable;
  channel_patches: ChannelPatchesTable;
  channel_patch_members: ChannelPatchMembersTable;
  private_calls: PrivateCallsTable;
  call_parties: CallPartiesTable;
  settings: SettingsTable;
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
}

export type Db = Kysely<Database>;
