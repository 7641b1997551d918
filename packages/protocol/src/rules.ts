/** Validation rules and business constants of the spec (sections 5 and 9), shared by server and web. */

export const LOGIN_MIN = 2;
export const LOGIN_MAX = 50;
/** Issue 16: the shortest new password unless the server's PASSWORD_MIN_LENGTH asks more (its 400 says so). */
export const PASSWORD_MIN_LENGTH = 8;
/** The longest password any call takes (the protocol's schemas). */
export const PASSWORD_MAX_LENGTH = 1024;
/**
 * The password length hints, shown but never blocking (spec section 5). Issue 58: said as the server applies
 * the rule, "too short" below its minimum and "too long" only past what it takes, not the spec's 2 to 8
 * (docs/spec-deviations.md).
 */
export const PASSWORD_HINT_MIN = PASSWORD_MIN_LENGTH;
export const PASSWORD_HINT_MAX = PASSWORD_MAX_LENGTH;

export const IMAGE_MAX_BYTES = 1024 * 1024;
export const IMAGE_MAX_LABEL = '1 MB';
/** Voice history (issue 15): a recording's size cap unless VOICE_MAX_BYTES says otherwise, and its longest duration. */
export const VOICE_MAX_BYTES_DEFAULT = 2 * 1024 * 1024;
export const VOICE_MAX_DURATION_MS = 15 * 60 * 1000;
export const VOICE_RETENTION_DAYS_DEFAULT = 30;
/** Live video (issue 61): recordings kept unless VIDEO_RETENTION_DAYS / VIDEO_MAX_BYTES say otherwise. */
export const VIDEO_RETENTION_DAYS_DEFAULT = 30;
export const VIDEO_MAX_BYTES_DEFAULT = 200 * 1024 * 1024;
/**
 * Issue 69: a sharer's upload is at most its stream's length (start to end, the server's) at VIDEO_MAX_KBPS kbit/s
 * plus VIDEO_UPLOAD_SLACK_BYTES (its header and a last cluster), within VIDEO_UPLOAD_WINDOW_MS of the stream's end;
 * VIDEO_UPLOADS_PER_HOUR uploads per user.
 */
export const VIDEO_MAX_KBPS_DEFAULT = 2500;
export const VIDEO_UPLOAD_SLACK_BYTES = 1024 * 1024;
export const VIDEO_UPLOAD_WINDOW_MS = 10 * 60 * 1000;
export const VIDEO_UPLOADS_PER_HOUR_DEFAULT = 20;
/** Issue 69: every upload is refused (507) when DATA_DIR's disk has less than DISK_RESERVE_MB free (the database's). */
export const DISK_RESERVE_MB_DEFAULT = 1024;
/** Peer to peer (no media server), a phone sends its video to each viewer: 4 at most (issue 61). */
export const VIDEO_MESH_MAX_VIEWERS = 4;
export const IMAGE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/bmp', 'image/gif', 'image/webp'] as const;
export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];

export const ACTIVITY_TIME_FRAMES = ['1m', '2w', '1w'] as const;
export type ActivityTimeFrame = (typeof ACTIVITY_TIME_FRAMES)[number];

export const DASHBOARD_ACTIVITIES_PAGE_SIZE = 8;
export const ACTIVITIES_PAGE_SIZE = 21;
export const TOP_CHANNELS = 5;
export const TREND_DAYS = 10;
export const TYPING_CLEAR_MS = 3000;
/** At most one position_update activity per user in this window; positions themselves are all kept. */
export const POSITION_ACTIVITY_INTERVAL_MS = 5 * 60 * 1000;
/** A phone sharing its position reports at most once in this interval (the member app, /talk). */
export const POSITION_REPORT_MIN_INTERVAL_MS = 10_000;
/** ...and only after moving farther than this from the last reported position (GPS jitter stays home). */
export const POSITION_REPORT_MIN_DISTANCE_M = 20;
/** Issue 28: reported positions are kept this many days unless POSITION_RETENTION_DAYS says otherwise (trails). */
export const POSITION_RETENTION_DAYS_DEFAULT = 30;
/** At most this many points in one answer of getPositionHistory (`truncated` says there were more). */
export const POSITION_HISTORY_MAX_POINTS = 10_000;
export const WIDE_LAYOUT_MIN_WIDTH = 1480;
export const CHAT_DRAWER_WIDTH = 420;
export const APP_VERSION = '2.0.2';

/** The channel's room key: the name with all whitespace removed (spec sections 3 and 5). */
export function rtcSessionOf(channelName: string): string {
  return channelName.replace(/\s+/g, '');
}

export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || String(value).trim() === '';
}

/** Spec section 5: text inputs are left-trimmed before sending. */
export function leftTrim(value: string): string {
  return value.replace(/^\s+/, '');
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}

/** Spec section 5: mapRight cells accept true/TRUE/vrai/VRAI and false/FALSE/faux/FAUX. */
export function parseMapRight(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const text = String(value ?? '').trim();
  if (['true', 'TRUE', 'vrai', 'VRAI', 'True', 'Vrai', '1'].includes(text)) return true;
  if (['false', 'FALSE', 'faux', 'FAUX', 'False', 'Faux', '0'].includes(text)) return false;
  return undefined;
}

/**
 * A channel or user name as it is stored and compared (issue 17): trimmed, each inner run of whitespace one
 * space, so that names that look alike are the same name.
 */
export function normalizeName(name: string): string {
  return name.trim().replace(/\s+/g, ' ');
}

/**
 * Text as the lists' search compares it (spec section 2: a substring of the whole row): case and accents
 * folded, so that 'helene' finds 'Hélène'. The web app folds rows and queries with it, and the server stores
 * each user's folded names (users.search_text) for the paged call.
 */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/**
 * Issue 18: past this many users the console's user tables page, sort and search on the server
 * (getUsersPage, getUserIds) instead of loading the whole list (getAllUsers: 7 MB at 10,000 users).
 */
export const USERS_PAGED_ABOVE = 5000;
/** What a paged users table may be sorted by (getUsersPage). */
export const USER_SORT_FIELDS = [
  'firstName',
  'lastName',
  'identifier',
  'pseudo',
  'mapRight',
  'createdAt',
  'lastActivity',
  'role',
] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

/** Channel names of an import cell: separated by semicolons, each normalised, blanks dropped. */
export function splitChannelNames(cell: unknown): string[] {
  return String(cell ?? '')
    .split(';')
    .map(normalizeName)
    .filter((name) => name !== '');
}

/** The six fields every user import row needs (spec section 5). */
export const USER_IMPORT_FIELDS = ['firstName', 'lastName', 'identifier', 'pseudo', 'password', 'mapRight'] as const;
/** A channel's voice mode (issue 26): through the media server when there is one, or always peer to peer. */
export const VOICE_MODES = ['server', 'mesh'] as const;
export type VoiceMode = (typeof VOICE_MODES)[number];
/**
 * What a higher talk priority does on a busy floor (issue 59): `interrupt` takes the floor from the talker,
 * `queue` goes first in the channel's floor queue (nobody is cut off).
 */
export const PREEMPTION_MODES = ['interrupt', 'queue'] as const;
export type PreemptionMode = (typeof PREEMPTION_MODES)[number];
/**
 * Who watches a channel's live video (issue 61): `dispatch`, its dispatchers and the administrators (the default),
 * or `channel`, every member of the channel as well.
 */
export const VIDEO_AUDIENCES = ['dispatch', 'channel'] as const;
export type VideoAudience = (typeof VIDEO_AUDIENCES)[number];

export const USER_IMPORT_COLUMNS = [...USER_IMPORT_FIELDS, 'canal'] as const;
/**
 * New, optional: a user import may also have these columns (`role`: admin, dispatcher or member; blank: member;
 * `talkPriority`, issue 59: 1 to 9; blank: the role's default).
 */
export const USER_IMPORT_OPTIONAL_COLUMNS = ['role', 'talkPriority'] as const;

export type UserImportRow = Partial<
  Record<(typeof USER_IMPORT_COLUMNS)[number] | (typeof USER_IMPORT_OPTIONAL_COLUMNS)[number], unknown>
>;

/** A column whose name contains 'canal' is the channel column (spec section 5). */
export function normaliseImportRow(row: Record<string, unknown>): UserImportRow {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    out[key.toLowerCase().includes('canal') ? 'canal' : key] = value;
  }
  return out as UserImportRow;
}

export function isValidUserImportRow(row: UserImportRow): boolean {
  return USER_IMPORT_FIELDS.every((field) => !isBlank(row[field])) && parseMapRight(row.mapRight) !== undefined;
}

/** Exact duplicates on the six fields are removed, first occurrence kept. */
export function dedupeUserRows<T extends UserImportRow>(rows: T[]): T[] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    const key = JSON.stringify(USER_IMPORT_FIELDS.map((field) => String(row[field] ?? '').trim()));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A user's name as everyone sees it: the stored display name, else first and last name. One rule for server and web. */
export function displayNameOf(user: { display_name?: string | null; firstName: string; lastName: string }): string {
  return user.display_name?.trim() || `${user.firstName.trim()} ${user.lastName.trim()}`.trim();
}
