/** What the domain plugins receive: stores, the session store and the notifier. Nothing reaches a global. */
import { type ActivityStore, activityStore } from './activities/store.ts';
import { type RateLimiter, rateLimiter } from './auth/rate-limit.ts';
import { type SessionStore, sessionStore } from './auth/sessions.ts';
import { type MembershipStore, membershipStore } from './channels/membership.ts';
import { type ChannelStore, channelStore } from './channels/store.ts';
import type { Config } from './config.ts';
import type { OpenedDatabase } from './db/open.ts';
import type { Db } from './db/schema.ts';
import { type FileStore, type FileUrls, fileStore, fileUrls, loadOrCreateSecret } from './messages/files.ts';
import { type MessageStore, messageStore } from './messages/store.ts';
import { type Notifier, SwitchableNotifier } from './realtime/notifier.ts';
import { type UserStore, userStore } from './users/store.ts';

export interface Services {
  config: Config;
  database: OpenedDatabase;
  db: Db;
  sessions: SessionStore;
  users: UserStore;
  memberships: MembershipStore;
  channels: ChannelStore;
  messages: MessageStore;
  /** Chat images under DATA_DIR/uploads. */
  files: FileStore;
  /** Signs and checks the expiring URLs that serve chat images. */
  fileUrls: FileUrls;
  activities: ActivityStore;
  notifier: Notifier & { target: Notifier | undefined };
  /** Sign-in failures per (address, login). */
  signInLimiter: RateLimiter;
  /** Sign-in failures per address, whatever the login. */
  addressLimiter: RateLimiter;
}

export function createServices(config: Config, database: OpenedDatabase): Services {
  const notifier = new SwitchableNotifier();
  const db = database.db;
  const urls = fileUrls(loadOrCreateSecret(config.dataDir), config.fileUrlTtlMs);
  return {
    config,
    database,
    db,
    sessions: sessionStore(db, config.tokenTtlMs),
    users: userStore(db),
    memberships: membershipStore(db),
    channels: channelStore(db),
    messages: messageStore(db, urls),
    files: fileStore(config.dataDir),
    fileUrls: urls,
    activities: activityStore(db, notifier),
    notifier,
    // 10 failures per login and address, 50 per address, in 15 minutes.
    signInLimiter: rateLimiter(10, 15 * 60 * 1000),
    addressLimiter: rateLimiter(50, 15 * 60 * 1000),
  };
}
