/**
 * Environment -> typed configuration, in one place (docs/operators/configuration.md lists each variable); how one value is read is
 * values.ts, single sign-on's variables oidc.ts.
 */
import path from 'node:path';
import {
  DISK_RESERVE_MB_DEFAULT,
  IMPORT_JOB_ABOVE_DEFAULT,
  POSITION_RETENTION_DAYS_DEFAULT,
  PRIVATE_CALL_RING_MS,
  VOICE_MAX_BYTES_DEFAULT,
  VOICE_RETENTION_DAYS_DEFAULT,
} from '@talkgroup/protocol';
import { type AreaTimings, parseAreaTimings } from './areas.ts';
import { type DispatchTimings, parseDispatchTimings } from './dispatch.ts';
import { parseFloorQueue, type QueueTimings } from './floor-queue.ts';
import { type OidcConfig, parseOidc } from './oidc.ts';
import { parseSip, type SipConfig } from './sip.ts';
import {
  ConfigError,
  mapSources,
  parseBytes,
  parseCount,
  parseDays,
  parseFlag,
  parseHours,
  parseMegabytes,
  parseOrigins,
  parsePort,
  parsePositiveSeconds,
  parseSeconds,
  parseSignInLogin,
  parseUrls,
  readPem,
} from './values.ts';
import { parseVideoConfig, type VideoConfig } from './video.ts';

export { ConfigError, type OidcConfig };

export interface IceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

export interface Config {
  /** Single sign-on (OIDC_*), undefined when OIDC_ISSUER is unset. */
  oidc: OidcConfig | undefined;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  adminLogin: string | undefined;
  adminPassword: string | undefined;
  allowSignup: boolean;
  iceServers: IceServer[];
  mapTileUrl: string;
  mapLabelsUrl: string | undefined;
  /** The map's credit line, plain text (MAP_ATTRIBUTION; Esri's for the default tiles; issue 58). */
  mapAttribution: string | undefined;
  tlsCert: string | undefined;
  tlsKey: string | undefined;
  logLevel: string;
  /** How long a sign-in token lives. */
  tokenTtlMs: number;
  /** How long a signed file URL stays valid. */
  fileUrlTtlMs: number;
  /** How often open sockets' rights are checked anyway, for changes made without Redis (realtime/room-guard.ts). */
  rightsRecheckMs: number;
  /** Built web app to serve; unset or missing folder serves the API only. */
  webDir: string | undefined;
  /** Names this process in presence rows so a restart can remove its stale ones. */
  instanceId: string;
  /** How long a connection lost without a goodbye (a phone changing networks) has before connexion_lost. */
  connectionLostGraceMs: number;
  /** The longest one may hold a channel's floor before it is taken back (FLOOR_MAX_SECONDS). */
  floorMaxMs: number;
  /** The floor queue (issue 59): FLOOR_QUEUE_SECONDS (30), FLOOR_QUEUE_ACCEPT_MS (3000). */
  floorQueue: QueueTimings;
  /** How long a private call rings before it is missed (PRIVATE_CALL_RING_SECONDS, 30 by default). */
  privateCallRingMs: number;
  /** The dispatch queue's timings (issue 49; dispatch.ts). */
  dispatch: DispatchTimings;
  /**
   * PRIVATE_CALLS_AUDITABLE=true (off by default, issue 35): one who exports voice may export a private call's,
   * giving why, and the audit log keeps it. Off, a private call is its two parties' only.
   */
  privateCallsAuditable: boolean;
  /** How old a member's position may be before the maps show it as stale (POSITION_STALE_SECONDS). */
  positionStaleMs: number;
  /** Trails: how long reported positions are kept (POSITION_RETENTION_DAYS, default 30). */
  positionRetentionMs: number;
  /** Area channels (issue 59): AREA_EXIT_SECONDS, AREA_SILENCE_MINUTES (areas.ts). */
  areaChannels: AreaTimings;
  loneWorkerMinSeconds: number;
  /** How long an ambient listening lasts unless renewed (AMBIENT_MAX_SECONDS, default 300; issue 60). */
  ambientMaxSeconds: number;
  /** Prefix of this deployment's keys in Redis (REDIS_KEY_PREFIX), for deployments that share one Redis. */
  redisKeyPrefix: string;
  /** Voice history: how long a transmission is kept (VOICE_RETENTION_DAYS, default 30). */
  voiceRetentionMs: number;
  /** Voice history: the largest recording accepted (VOICE_MAX_BYTES, default 2 MB). */
  voiceMaxBytes: number;
  /** Uploads are refused (507) when DATA_DIR's disk has less than this free (DISK_RESERVE_MB, 1,024; issue 69). */
  diskReserveBytes: number;
  /** Live video's recordings (issue 61): VIDEO_RETENTION_DAYS (30), VIDEO_MAX_BYTES (200 MB); video.ts. */
  video: VideoConfig;
  /** Origins that may frame the user call view (FRAME_ANCESTORS); every other page may not be framed. */
  frameAncestors: string[];
  /** Fastify's trustProxy (TRUST_PROXY): false, true, a hop count, or addresses/CIDRs of the reverse proxies. */
  trustProxy: boolean | string[] | ((address: string, hop: number) => boolean);
  /** Chat messages one user may send per minute, all ways together (CHAT_MESSAGES_PER_MINUTE). */
  chatMessagesPerMinute: number;
  /** Shortest new password (PASSWORD_MIN_LENGTH, 8 by default, 8 to 64). */
  passwordMinLength: number;
  /** A session unused this long ends (SESSION_IDLE_HOURS); its absolute lifetime is tokenTtlMs. */
  sessionIdleMs: number;
  /** GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>` (on METRICS_PORT too when set). */
  metricsToken: string | undefined;
  /** Serve /metrics alone on this port (METRICS_PORT) of METRICS_HOST (127.0.0.1), not on the main one. */
  metricsPort: number | undefined;
  metricsHost: string;
  /**
   * SIP gateways (issue 51): radios and desk phones dial channels on SIP_PORT (UDP and TCP); undefined when
   * SIP_PORT is unset (nothing listens). See sip.ts.
   */
  sip: SipConfig | undefined;
  /** The media server (issue 26): WebSocket addresses of Janus instances' API (JANUS_URL); none: the mesh. */
  janusUrls: string[];
  /**
   * Janus's API secret (JANUS_API_SECRET): its `api_secret`, the AudioBridge's and the Streaming plugin's
   * `admin_key`, and the key each room's and mountpoint's own secret is derived from. Required (32 characters
   * or more) when a JANUS_URL names another host than this one.
   */
  janusApiSecret: string | undefined;
  /**
   * Where Janus writes the takes it records and this server reads them (JANUS_RECORDINGS_DIR, default
   * DATA_DIR/janus-takes): a folder both can reach (the same machine, or a shared volume).
   */
  janusRecordingsDir: string;
  /** TURN servers handed to browsers with time-limited credentials (TURN_URLS, comma list). */
  turnUrls: string[];
  /** coturn's REST-API shared secret (TURN_SECRET, its static-auth-secret). */
  turnSecret: string | undefined;
  /** How long a TURN credential is valid (TURN_TTL_SECONDS, 3600 by default, a day at most). */
  turnTtlMs: number;
  /** Browsers use only relayed (TURN) candidates (ICE_TRANSPORT_POLICY=relay), or every path (all, default). */
  iceTransportPolicy: 'all' | 'relay';
  /** The longest a query waits on PostgreSQL before the call answers 503 (DATABASE_TIMEOUT_SECONDS, 5). */
  databaseTimeoutMs: number;
  /**
   * A socket whose client stops reading is disconnected once this much waits unsent for it
   * (MAX_SOCKET_BUFFER_BYTES, 2 MB): its backlog must not grow the server's memory without end.
   */
  maxSocketBufferBytes: number;
  /** New socket connections one address may open per minute (CONNECTION_RATE_PER_MINUTE, 120). */
  connectionRatePerMinute: number;
  /** Sockets this instance holds at most; past it a new one is refused as `server_busy` (MAX_CONNECTIONS, 20000). */
  maxConnections: number;
  /** A user import of more rows than this runs as a job (IMPORT_JOB_ABOVE, 100 by default). */
  importJobAbove: number;
  /** Rows an import job handles per transaction, its progress saved after each (IMPORT_JOB_BATCH, 200). */
  importJobBatch: number;
  /** Web Push (issue 34): on unless PUSH=off. */
  push: boolean;
  /** The VAPID key pair (VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY, base64url); unset: made once and kept in the database. */
  vapidPublicKey: string | undefined;
  vapidPrivateKey: string | undefined;
  /** VAPID_SUBJECT (mailto: or https:); unset: mailto: the first administrator's email. */
  vapidSubject: string | undefined;
  /**
   * Push endpoints' origins that may be on a private, loopback or link-local address (PUSH_ENDPOINT_ALLOW,
   * comma-separated origins): a push relay on a closed network.
   */
  pushEndpointAllow: string[];
  /** More certificate authorities (PEM) that push services' certificates may chain to (tests; else NODE_EXTRA_CA_CERTS). */
  pushExtraCa: string | undefined;
  /**
   * PUBLIC_URL: the address users reach (https://talk.example.org), without a path. Passkeys belong to its host
   * (the WebAuthn relying party) and single sign-on returns to it. Unset: each request's own host and origin.
   */
  publicUrl: string | undefined;
}

function parseIcePolicy(raw: string | undefined): 'all' | 'relay' {
  if (raw === undefined || raw === '' || raw === 'all') return 'all';
  if (raw === 'relay') return 'relay';
  throw new ConfigError(`ICE_TRANSPORT_POLICY must be "all" or "relay" (got "${raw}")`);
}

function parseIceServers(raw: string | undefined): IceServer[] {
  if (!raw) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('ICE_SERVERS must be a JSON list, for example [{"urls":"stun:stun.example.org"}]');
  }
  if (!Array.isArray(parsed) || !parsed.every((s) => s && typeof s === 'object' && 'urls' in s)) {
    throw new ConfigError('ICE_SERVERS must be a JSON list of objects with "urls"');
  }
  return parsed as IceServer[];
}

function parsePasswordMinLength(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 8;
  const length = Number(raw);
  if (!Number.isInteger(length) || length < 8 || length > 64)
    throw new ConfigError(`PASSWORD_MIN_LENGTH must be a whole number from 8 to 64, not "${raw}"`);
  return length;
}

/** PUBLIC_URL: an http(s) origin, a trailing slash allowed; kept as the origin (no path). */
function parsePublicUrl(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {}
  if (!url || !/^https?:$/.test(url.protocol) || (url.pathname !== '/' && url.pathname !== '') || url.search)
    throw new ConfigError(`PUBLIC_URL must be the address users reach, such as https://talk.example.org, not "${raw}"`);
  return url.origin;
}

/** TRUST_PROXY: true/false, a number of proxy hops, or the proxies' addresses or CIDRs (comma-separated). */
function parseTrustProxy(raw: string | undefined): Config['trustProxy'] {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    return (_address, hop) => hop < hops;
  }
  const proxies = raw.split(',').map((part) => part.trim());
  if (!proxies.every((part) => /^[0-9a-f:.]+(\/\d+)?$|^(loopback|linklocal|uniquelocal)$/i.test(part)))
    throw new ConfigError(`TRUST_PROXY must be true, false, a hop count or proxy addresses/CIDRs, not "${raw}"`);
  return proxies;
}

/** The shortest secret shared with coturn or Janus: `openssl rand -hex 32` gives 64 characters. */
export const SHARED_SECRET_MIN_LENGTH = 32;

/** A secret shared with another server: unset, or long enough and not a placeholder of an example file. */
function parseSharedSecret(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < SHARED_SECRET_MIN_LENGTH || /change-?me/i.test(raw))
    throw new ConfigError(
      `${name} must be a random secret of at least ${SHARED_SECRET_MIN_LENGTH} characters (make one with: openssl rand -hex 32)`,
    );
  return raw;
}

/** 127.0.0.0/8, ::1 and localhost: a Janus on this machine, whose API nobody else reaches. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** JANUS_API_SECRET: required as soon as one JANUS_URL is on another host (its API is then on a network). */
function parseJanusSecret(urls: string[], raw: string | undefined): string | undefined {
  const secret = parseSharedSecret('JANUS_API_SECRET', raw);
  const remote = urls.find((url) => !isLoopbackUrl(url));
  if (remote && !secret)
    throw new ConfigError(
      `JANUS_API_SECRET is required when JANUS_URL names another host (${remote}): set it to Janus's api_secret (make one with: openssl rand -hex 32)`,
    );
  return secret;
}

/** TURN_TTL_SECONDS: one hour by default; a credential outlives a logout, so never more than a day. */
function parseTurnTtl(raw: string | undefined): number {
  const seconds = parsePositiveSeconds('TURN_TTL_SECONDS', raw, 3600);
  if (seconds > 86_400) throw new ConfigError(`TURN_TTL_SECONDS must be at most 86400 (a day), not "${raw}"`);
  return seconds;
}

/** PUSH: on by default; `off` (or false) turns Web Push off. */
function parsePush(raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === 'on' || raw === 'true') return true;
  if (raw === 'off' || raw === 'false') return false;
  throw new ConfigError(`PUSH must be on or off, not "${raw}"`);
}

/** VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY: both or neither, base64url of a 65-byte P-256 point and a 32-byte key. */
function parseVapidKeys(publicKey: string | undefined, privateKey: string | undefined) {
  if (!publicKey && !privateKey) return { vapidPublicKey: undefined, vapidPrivateKey: undefined };
  const bytes = (value: string | undefined) =>
    value && /^[A-Za-z0-9_-]+$/.test(value) ? Buffer.from(value, 'base64url').length : 0;
  if (bytes(publicKey) !== 65 || bytes(privateKey) !== 32)
    throw new ConfigError(
      'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: base64url of the 65-byte public key and of the 32-byte private key (make them with: npx web-push generate-vapid-keys)',
    );
  return { vapidPublicKey: publicKey, vapidPrivateKey: privateKey };
}

function parseVapidSubject(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!/^(mailto:.+@.+|https:\/\/.+)$/.test(raw))
    throw new ConfigError(`VAPID_SUBJECT must be a mailto: or https: address, not "${raw}"`);
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Relative paths are the user's: npm runs the server from its package folder, but sets INIT_CWD to the
  // folder where `npm start` was typed.
  const base = env.INIT_CWD || process.cwd();
  const dataDir = path.resolve(base, env.DATA_DIR ?? './data');
  const janusUrls = parseUrls('JANUS_URL', env.JANUS_URL, /^wss?:\/\//, 'ws://127.0.0.1:8188');
  const publicUrl = parsePublicUrl(env.PUBLIC_URL);
  return {
    publicUrl,
    oidc: parseOidc(env, publicUrl),
    port: parsePort(env.PORT),
    host: env.HOST ?? '127.0.0.1',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    adminLogin: parseSignInLogin('ADMIN_LOGIN', env.ADMIN_LOGIN),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    allowSignup: env.ALLOW_SIGNUP === 'true',
    iceServers: parseIceServers(env.ICE_SERVERS),
    ...mapSources(env),
    tlsCert: readPem('TLS_CERT', env.TLS_CERT, base),
    tlsKey: readPem('TLS_KEY', env.TLS_KEY, base),
    logLevel: env.LOG_LEVEL ?? 'info',
    tokenTtlMs: parseDays('TOKEN_TTL_DAYS', env.TOKEN_TTL_DAYS, 30) * 24 * 3600 * 1000,
    fileUrlTtlMs: 24 * 3600 * 1000,
    rightsRecheckMs: 30_000,
    webDir: env.WEB_DIR
      ? path.resolve(base, env.WEB_DIR)
      : (env.WEB_DIR ?? path.resolve(import.meta.dirname, '../../../web/dist')),
    instanceId: env.INSTANCE_ID ?? `${process.pid}-${Date.now().toString(36)}`,
    connectionLostGraceMs: parseSeconds('CONNECTION_LOST_GRACE_SECONDS', env.CONNECTION_LOST_GRACE_SECONDS, 15) * 1000,
    floorMaxMs: parseSeconds('FLOOR_MAX_SECONDS', env.FLOOR_MAX_SECONDS, 60) * 1000,
    floorQueue: parseFloorQueue(env),
    privateCallRingMs:
      parseSeconds('PRIVATE_CALL_RING_SECONDS', env.PRIVATE_CALL_RING_SECONDS, PRIVATE_CALL_RING_MS / 1000) * 1000,
    dispatch: parseDispatchTimings(env),
    privateCallsAuditable: parseFlag('PRIVATE_CALLS_AUDITABLE', env.PRIVATE_CALLS_AUDITABLE),
    positionStaleMs: parseSeconds('POSITION_STALE_SECONDS', env.POSITION_STALE_SECONDS, 300) * 1000,
    positionRetentionMs:
      parseDays('POSITION_RETENTION_DAYS', env.POSITION_RETENTION_DAYS, POSITION_RETENTION_DAYS_DEFAULT) * 86_400_000,
    areaChannels: parseAreaTimings(env),
    loneWorkerMinSeconds: parsePositiveSeconds('LONE_WORKER_MIN_SECONDS', env.LONE_WORKER_MIN_SECONDS, 300),
    ambientMaxSeconds: parsePositiveSeconds('AMBIENT_MAX_SECONDS', env.AMBIENT_MAX_SECONDS, 300),
    redisKeyPrefix: env.REDIS_KEY_PREFIX || 'talkgroup:',
    voiceRetentionMs:
      parseDays('VOICE_RETENTION_DAYS', env.VOICE_RETENTION_DAYS, VOICE_RETENTION_DAYS_DEFAULT) * 24 * 3600 * 1000,
    voiceMaxBytes: parseBytes('VOICE_MAX_BYTES', env.VOICE_MAX_BYTES, VOICE_MAX_BYTES_DEFAULT),
    diskReserveBytes: parseMegabytes('DISK_RESERVE_MB', env.DISK_RESERVE_MB, DISK_RESERVE_MB_DEFAULT) * 1024 * 1024,
    video: parseVideoConfig(env),
    frameAncestors: parseOrigins('FRAME_ANCESTORS', env.FRAME_ANCESTORS),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    chatMessagesPerMinute: parseCount('CHAT_MESSAGES_PER_MINUTE', env.CHAT_MESSAGES_PER_MINUTE, 120),
    passwordMinLength: parsePasswordMinLength(env.PASSWORD_MIN_LENGTH),
    sessionIdleMs: parseHours('SESSION_IDLE_HOURS', env.SESSION_IDLE_HOURS, 7 * 24) * 3600 * 1000,
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPort: env.METRICS_PORT ? parsePort(env.METRICS_PORT, 'METRICS_PORT') : undefined,
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    sip: parseSip(env),
    janusUrls,
    janusApiSecret: parseJanusSecret(janusUrls, env.JANUS_API_SECRET),
    janusRecordingsDir: path.resolve(base, env.JANUS_RECORDINGS_DIR ?? path.join(dataDir, 'janus-takes')),
    turnUrls: parseUrls('TURN_URLS', env.TURN_URLS, /^turns?:/, 'turn:turn.example.org:3478'),
    turnSecret: parseSharedSecret('TURN_SECRET', env.TURN_SECRET),
    turnTtlMs: parseTurnTtl(env.TURN_TTL_SECONDS) * 1000,
    iceTransportPolicy: parseIcePolicy(env.ICE_TRANSPORT_POLICY),
    databaseTimeoutMs: parsePositiveSeconds('DATABASE_TIMEOUT_SECONDS', env.DATABASE_TIMEOUT_SECONDS, 5) * 1000,
    maxSocketBufferBytes: parseBytes('MAX_SOCKET_BUFFER_BYTES', env.MAX_SOCKET_BUFFER_BYTES, 2 * 1024 * 1024),
    connectionRatePerMinute: parseCount('CONNECTION_RATE_PER_MINUTE', env.CONNECTION_RATE_PER_MINUTE, 120),
    maxConnections: parseCount('MAX_CONNECTIONS', env.MAX_CONNECTIONS, 20_000),
    importJobAbove: parseCount('IMPORT_JOB_ABOVE', env.IMPORT_JOB_ABOVE, IMPORT_JOB_ABOVE_DEFAULT),
    importJobBatch: parseCount('IMPORT_JOB_BATCH', env.IMPORT_JOB_BATCH, 200),
    push: parsePush(env.PUSH),
    ...parseVapidKeys(env.VAPID_PUBLIC_KEY || undefined, env.VAPID_PRIVATE_KEY || undefined),
    vapidSubject: parseVapidSubject(env.VAPID_SUBJECT),
    pushEndpointAllow: parseOrigins('PUSH_ENDPOINT_ALLOW', env.PUSH_ENDPOINT_ALLOW).map(
      (origin) => new URL(origin).origin,
    ),
    pushExtraCa: undefined,
  };
}
