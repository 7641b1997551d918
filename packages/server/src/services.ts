/**
 * What the domain plugins receive: stores, the session store and the event bus. Nothing reaches a global.
 * Every store is built here, once, and handed to the routes that use it: no route builds its own.
 */

import { type ActivityStore, activityStore } from './activities/store.ts';
import { type AliasLabels, aliasLabels } from './aliases/labels.ts';
import { type AliasStore, aliasStore } from './aliases/store.ts';
import { type AreaChannels, areaChannels } from './areas/follow.ts';
import { areaStore } from './areas/store.ts';
import { type Auditing, auditing } from './audit/auditing.ts';
import { type AuditStore, auditStore } from './audit/store.ts';
import { type Transactional, transactional } from './audit/transactional.ts';
import { type CounterStore, memoryCounterStore, redisCounterStore } from './auth/counter-store.ts';
import { type HashPool, hashPool } from './auth/hash-pool.ts';
import { type PasskeyService, passkeyService } from './auth/passkeys.ts';
import { type PasswordPolicy, passwordPolicy } from './auth/password-policy.ts';
import {
  type CallLimiter,
  callLimiter,
  chatLimit,
  PRIVATE_CALL_LIMIT,
  UPLOAD_LIMIT,
  type VideoLimiters,
  VOICE_UPLOAD_LIMIT,
  videoLimiters,
} from './auth/rate-limit.ts';
import { type Sealer, sealer } from './auth/sealed.ts';
import { type SecondFactors, secondFactors } from './auth/second-factor.ts';
import { type SessionStore, sessionStore } from './auth/sessions.ts';
import { type SignInLimits, signInLimits } from './auth/sign-in-limits.ts';
import { totpStore } from './auth/totp.ts';
import { type PrivateCalls, privateCalls } from './calls/private-calls.ts';
import { privateCallStore } from './calls/store.ts';
import { type ChannelAccess, channelAccess } from './channels/access.ts';
import { type MembershipStore, membershipStore } from './channels/membership.ts';
import { type ChannelStore, channelStore } from './channels/store.ts';
import type { Config } from './config/config.ts';
import { type StatisticsStore, statisticsStore } from './dashboard/store.ts';
import type { OpenedDatabase } from './db/open.ts';
import type { Db } from './db/schema.ts';
import { type DeviceStatusStore, deviceStatusStore } from './devices/store.ts';
import { type MonitorStore, monitorStore } from './dispatch/monitor-store.ts';
import { type DispatchQueue, dispatchQueue } from './dispatch/queue.ts';
import { type DispatchQueueStore, dispatchQueueStore } from './dispatch/queue-store.ts';
import { type EmergencyAlerts, emergencyAlerts } from './emergency/alerts.ts';
import { emergencyStore } from './emergency/store.ts';
import { createEventBus, type EventBus } from './events.ts';
import { type TalkBurstStore, talkBurstStore } from './floor/talk-bursts.ts';
import { type GatewayStore, gatewayStore } from './gateways/store.ts';
import { type GeofenceStore, geofenceStore } from './geofences/store.ts';
import { type GeofenceWatch, geofenceWatch } from './geofences/watch.ts';
import { type DiskReserve, diskReserve } from './http/disk-reserve.ts';
import { type DeviceStore, deviceStore } from './legacy/store.ts';
import { type ListChangeLog, listChangeLog } from './lists/change-log.ts';
import { type FileStore, type FileUrls, fileStore, fileUrls, loadOrCreateSecret } from './messages/files.ts';
import { messageSender, type SendMessage } from './messages/send.ts';
import { type MessageStore, messageStore } from './messages/store.ts';
import { type PatchStore, patchStore } from './patches/store.ts';
import { type Followers, followers } from './positions/followers.ts';
import { type PositionStore, positionStore } from './positions/store.ts';
import { type PresenceStore, presenceStore } from './presence/store.ts';
import { createFaults, type Faults } from './process/faults.ts';
import { type PushSubscriptionStore, pushSubscriptionStore } from './push/store.ts';
import { type Regroups, regroups } from './regroups/regroups.ts';
import { regroupStore } from './regroups/store.ts';
import { type ReportReader, reportReader } from './reports/reader.ts';
import { type ReportStore, reportStore } from './reports/store.ts';
import { loneWorkerStore } from './safety/lone-worker-store.ts';
import { type LoneWorkers, loneWorkers } from './safety/lone-workers.ts';
import { type SettingsStore, settingsStore } from './settings/store.ts';
import { type StatusStore, statusStore } from './statuses/store.ts';
import { type UserPaging, userPaging } from './users/paging.ts';
import { type UserStore, userStore } from './users/store.ts';
import { type VideoStore, videoStore } from './video/store.ts';
import { type MissedStore, missedStore } from './voice/missed.ts';
import { type ScanStore, scanStore } from './voice/scan.ts';
import { type VoiceStore, voiceStore } from './voice/store.ts';

export interface Services {
  config: Config;
  database: OpenedDatabase;
  db: Db;
  /** Domain events: routes and services emit, real time listens. */
  events: EventBus;
  sessions: SessionStore;
  users: UserStore;
  memberships: MembershipStore;
  channels: ChannelStore;
  /** Who may read a channel: administrators and its members. */
  access: ChannelAccess;
  messages: MessageStore;
  sendMessage: SendMessage;
  /** Chat images under DATA_DIR/uploads. */
  files: FileStore;
  /** Signs and checks the expiring URLs that serve chat images. */
  fileUrls: FileUrls;
  activities: ActivityStore;
  /** Connected sockets (user_sockets). */
  presence: PresenceStore;
  talkBursts: TalkBurstStore;
  positions: PositionStore;
  devices: DeviceStore;
  /** Voice history: recorded transmissions, their audio under DATA_DIR/voice (issue 15). */
  voice: VoiceStore;
  /** Live video's streams and recordings, their files under DATA_DIR/video (issue 61). */
  videos: VideoStore;
  /** Who heard which transmission, and who is busy (issue 34). */
  missed: MissedStore;
  /** The channels each member took out of its scan on /talk (issue 34). */
  scan: ScanStore;
  /** SOS alerts (issue 14). */
  emergency: EmergencyAlerts;
  /** Expiring counters of the limits: Redis when REDIS_URL is set (shared by instances), else memory. */
  counters: CounterStore;
  /** Sign-in failures per account (growing delays) and per address. */
  signInLimits: SignInLimits;
  /** Uploads per user. */
  uploadLimit: CallLimiter;
  /** Voice transmissions a user may upload per minute (VOICE_UPLOAD_LIMIT). */
  voiceUploadLimit: CallLimiter;
  /** Live video's limits (issue 69): requests per caller and starts per user a minute, uploads per user an hour. */
  videoLimits: VideoLimiters;
  /** Refuses every upload while DATA_DIR's disk is under DISK_RESERVE_MB (issue 69). */
  diskReserve: DiskReserve;
  /** The rule for new passwords (PASSWORD_MIN_LENGTH, common passwords). */
  passwordPolicy: PasswordPolicy;
  /** Hashes many passwords at once (imports) on worker threads of its own, leaving sign-ins their pool. */
  hashPool: HashPool;
  /** Seals an import job's rows while they wait (their passwords), under the deployment's secret key. */
  importSealer: Sealer;
  /** What administrators did (never pruned). */
  audit: AuditStore;
  /** What changed in the whole lists (getAllUsers, getAllChannels) since a reader last looked. */
  listChanges: ListChangeLog;
  /** Runs an administrator's call with its audit row, in one transaction. */
  auditing: Auditing;
  /** Runs `work` in one transaction that the stores follow; events emitted inside wait for its commit. */
  transaction: Transactional['run'];
  /** Geofences and each member's side of their edges (issue 28). */
  geofences: GeofenceStore;
  /** The crossing check of every reported position, with its fences cached per channel. */
  geofenceWatch: GeofenceWatch;
  /** Area channels (issue 59): who reports a position in a channel's zone joins it, and leaves it after. */
  areaChannels: AreaChannels;
  /** Channels whose voice the media server joins (issue 27); `active()` is what a media server must join again. */
  patches: PatchStore;
  /** One-to-one calls in hidden channels (issue 27). */
  privateCalls: PrivateCalls;
  /** Functional aliases (issue 59) and, in memory, who holds which (real time names them). */
  aliases: AliasStore;
  aliasLabels: AliasLabels;
  /** The dispatcher's call queue (issue 49): its table, and its steps. */
  dispatchRequests: DispatchQueueStore;
  dispatchQueue: DispatchQueue;
  /** The organisation's settings (who may call whom, the security policy). */
  settings: SettingsStore;
  /** Members' statuses (issue 49): the organisation's list and each user's. */
  statuses: StatusStore;
  /** Reports over a period (issue 50): each measure by SQL aggregates. */
  reports: ReportStore;
  /** Where reports are read (issue 57): worker threads on SQLite, a pool of their own on PostgreSQL. */
  reportReader: ReportReader;
  /** SIP gateways (issue 51): their settings, credentials' hashes, channels and calls now. */
  gateways: GatewayStore;
  /** Users' passkeys and the WebAuthn challenges (issue 38). */
  passkeys: PasskeyService;
  /** Second factors (issue 38): TOTP with recovery codes, whether a user has one, whether its role needs one. */
  secondFactors: SecondFactors;
  /** The dashboard's counts (getStatistics). */
  statistics: StatisticsStore;
  /** Each dispatch desk's monitored channels, volumes and mutes (issue 27). */
  monitors: MonitorStore;
  /** Web Push subscriptions, one per session (issue 34); kept even with PUSH=off, so that they can be removed. */
  pushSubscriptions: PushSubscriptionStore;
  /** The users list a page at a time (getUsersPage): search, sort, the rows of one page. */
  userPages: UserPaging;
  /** Whose position a reader may follow (the map, trails). */
  followers: Followers;
  /** Regroups and each member's selected channel (issue 59). */
  regroups: Regroups;
  /** Lone-worker check-ins and the safety settings' rules (issue 60). */
  loneWorkers: LoneWorkers;
  /** Each member's latest device status (issue 60). */
  deviceStatuses: DeviceStatusStore;
  /** Errors that ended one message, call, event or timer and nothing else: counted and logged (process/faults.ts). */
  faults: Faults;
}

/** The limits' counters: in Redis across instances (REDIS_URL), else in this process. */
function countersFor(config: Config, onError: (error: unknown, event: string) => void) {
  return config.redisUrl
    ? redisCounterStore(config.redisUrl, `${config.redisKeyPrefix}limits:`, (error) => onError(error, 'limits redis'))
    : memoryCounterStore();
}

export function createServices(
  config: Config,
  database: OpenedDatabase,
  onListenerError: (error: unknown, event: string) => void = () => {},
): Services {
  // Administrators' calls run in one transaction with their audit row (audit/transactional.ts): the stores
  // get the handle that follows it, and events wait for its commit.
  const { dialect } = database;
  const tx = transactional(database.db);
  const db = tx.db;
  const events = tx.deferEvents(createEventBus(onListenerError));
  const audit = auditStore(db);
  const secret = loadOrCreateSecret(config.dataDir);
  const urls = fileUrls(secret, config.fileUrlTtlMs);
  const channels = channelStore(db);
  const memberships = membershipStore(db);
  const access = channelAccess(channels, memberships);
  const messages = messageStore(db, urls);
  const activities = activityStore(db, events);
  const users = userStore(db);
  const presence = presenceStore(db);
  const positions = positionStore(db);
  const geofences = geofenceStore(db);
  const counters = countersFor(config, onListenerError);
  const settings = settingsStore(db);
  const emergency = emergencyAlerts({
    store: emergencyStore(db),
    access,
    channels,
    memberships,
    users,
    presence,
    activities,
    events,
    settings,
    positions,
    audit,
    transaction: tx.run,
  });
  const aliases = aliasStore(db, database.dialect);
  const calls = privateCalls({
    aliases,
    store: privateCallStore(db),
    channels,
    memberships,
    users,
    presence,
    activities,
    settings,
    events,
    ringMs: config.privateCallRingMs,
    limit: callLimiter(counters, 'private-call', PRIVATE_CALL_LIMIT),
  });
  const dispatchRequests = dispatchQueueStore(db);
  const passkeys = passkeyService(db, secret, config.publicUrl);
  const faults = createFaults();
  const reports = reportStore(db, database.dialect);
  return {
    config,
    database: { ...database, db },
    db,
    events,
    sessions: sessionStore(db, config.tokenTtlMs, config.sessionIdleMs),
    users,
    memberships,
    channels,
    access,
    messages,
    sendMessage: messageSender({
      db,
      access,
      messages,
      activities,
      events,
      limit: callLimiter(counters, 'chat', chatLimit(config.chatMessagesPerMinute)),
    }),
    files: fileStore(config.dataDir),
    fileUrls: urls,
    activities,
    presence,
    talkBursts: talkBurstStore(db),
    positions,
    devices: deviceStore(db),
    voice: voiceStore(db, urls, config.dataDir),
    videos: videoStore(db, urls, config.dataDir),
    missed: missedStore(db),
    scan: scanStore(db, channels),
    emergency,
    counters,
    signInLimits: signInLimits(counters),
    uploadLimit: callLimiter(counters, 'upload', UPLOAD_LIMIT),
    voiceUploadLimit: callLimiter(counters, 'voice-upload', VOICE_UPLOAD_LIMIT),
    videoLimits: videoLimiters(counters, config.video.uploadsPerHour),
    diskReserve: diskReserve(config.dataDir, config.diskReserveBytes),
    passwordPolicy: passwordPolicy(config.passwordMinLength),
    hashPool: hashPool(),
    importSealer: sealer(secret, 'import job rows'),
    audit,
    auditing: auditing(db, tx, audit),
    transaction: tx.run,
    listChanges: listChangeLog(db, database.dialect),
    geofences,
    geofenceWatch: geofenceWatch({ store: geofences, positions, users, activities, events }),
    areaChannels: areaChannels({
      store: areaStore(db),
      users,
      activities,
      events,
      timings: config.areaChannels,
      onError: (error, what) => onListenerError(error, what),
    }),
    patches: patchStore(db),
    privateCalls: calls,
    aliases,
    aliasLabels: aliasLabels(aliases, (error) => onListenerError(error, 'aliasesChanged')),
    dispatchRequests,
    dispatchQueue: dispatchQueue({
      store: dispatchRequests,
      access,
      users,
      privateCalls: calls,
      activities,
      events,
      limits: config.dispatch,
      onError: (error, what) => onListenerError(error, what),
    }),
    settings,
    statuses: statusStore(db),
    reports,
    reportReader: reportReader(database.location, reports, {
      onError: (error) => faults.fault('worker', error, { worker: 'report reader' }),
    }),
    gateways: gatewayStore(db),
    passkeys,
    secondFactors: secondFactors(db, totpStore(db, sealer(secret, 'totp secrets')), settings, passkeys, events),
    statistics: statisticsStore(db),
    monitors: monitorStore(db),
    pushSubscriptions: pushSubscriptionStore(db, { dialect: database.dialect, sessionIdleMs: config.sessionIdleMs }),
    userPages: userPaging(db, users),
    followers: followers(db, access),
    regroups: regroups({ store: regroupStore(db, dialect), access, channels, events, audit, transaction: tx.run }),
    loneWorkers: loneWorkers({
      store: loneWorkerStore(db),
      settings,
      users,
      memberships,
      access,
      emergency,
      events,
      minSeconds: config.loneWorkerMinSeconds,
      onError: (error, what) => onListenerError(error, what),
    }),
    deviceStatuses: deviceStatusStore(db),
    faults,
  };
}
