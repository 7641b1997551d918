/** The organisation's settings (issue 27): one JSON value per key, with its defaults. */
import {
  type CallSettings,
  CallSettingsSchema,
  isTimeZone,
  SAFETY_DEFAULTS,
  type SafetySettings,
  SafetySettingsSchema,
  type SecurityPolicy,
  SecurityPolicySchema,
  VIDEO_SETTINGS_DEFAULTS,
  type VideoSettings,
  VideoSettingsSchema,
} from '@talkgroup/protocol';
import type { Db } from '../db/schema.ts';

const CALLS = 'calls';
const CALL_DEFAULTS: CallSettings = { membersMayCallMembers: false };
const SECURITY = 'security';
const SECURITY_DEFAULTS: SecurityPolicy = { requireSecondFactor: [] };
const TIME_ZONE = 'timeZone';
const SAFETY = 'safety';
const VIDEO = 'video';

/** The time zone this server runs in (the process's TZ, else the system's): the default of the organisation's. */
export function serverTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function settingsStore(db: Db) {
  return {
    /** Who may call whom privately; the defaults until an administrator changes them. */
    async calls(): Promise<CallSettings> {
      const row = await db.selectFrom('settings').select('value').where('key', '=', CALLS).executeTakeFirst();
      if (!row) return CALL_DEFAULTS;
      const parsed = CallSettingsSchema.safeParse({ ...CALL_DEFAULTS, ...JSON.parse(row.value) });
      return parsed.success ? parsed.data : CALL_DEFAULTS;
    },

    async setCalls(settings: CallSettings): Promise<CallSettings> {
      const value = JSON.stringify(settings);
      await db
        .insertInto('settings')
        .values({ key: CALLS, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
        .execute();
      return settings;
    },

    /** Issue 38: which roles must have a second factor; none until an administrator says so. */
    async security(): Promise<SecurityPolicy> {
      const row = await db.selectFrom('settings').select('value').where('key', '=', SECURITY).executeTakeFirst();
      if (!row) return SECURITY_DEFAULTS;
      const parsed = SecurityPolicySchema.safeParse({ ...SECURITY_DEFAULTS, ...JSON.parse(row.value) });
      return parsed.success ? parsed.data : SECURITY_DEFAULTS;
    },

    async setSecurity(policy: SecurityPolicy): Promise<SecurityPolicy> {
      const stored = { requireSecondFactor: [...new Set(policy.requireSecondFactor)].sort() };
      const value = JSON.stringify(stored);
      await db
        .insertInto('settings')
        .values({ key: SECURITY, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
        .execute();
      return stored;
    },

    /**
     * Issue 60: worker safety (lone work, man-down, ambient listening; issue 69: which SOS opens a microphone); the
     * defaults for what was never set.
     */
    async safety(): Promise<SafetySettings> {
      const row = await db.selectFrom('settings').select('value').where('key', '=', SAFETY).executeTakeFirst();
      if (!row) return SAFETY_DEFAULTS;
      const stored = JSON.parse(row.value) as Partial<SafetySettings>;
      const parsed = SafetySettingsSchema.safeParse({
        loneWorker: { ...SAFETY_DEFAULTS.loneWorker, ...stored.loneWorker },
        manDown: { ...SAFETY_DEFAULTS.manDown, ...stored.manDown },
        ambientListening: stored.ambientListening ?? SAFETY_DEFAULTS.ambientListening,
        // Issue 69: a row written before it has none: only the member's own SOS opens its microphone.
        emergencyOpenMic: stored.emergencyOpenMic ?? SAFETY_DEFAULTS.emergencyOpenMic,
      });
      return parsed.success ? parsed.data : SAFETY_DEFAULTS;
    },

    async setSafety(settings: SafetySettings): Promise<SafetySettings> {
      const value = JSON.stringify(settings);
      await db
        .insertInto('settings')
        .values({ key: SAFETY, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
        .execute();
      return settings;
    },

    /** Issue 61: whether a dispatcher's video request asks the member first; the default until it is set. */
    async video(): Promise<VideoSettings> {
      const row = await db.selectFrom('settings').select('value').where('key', '=', VIDEO).executeTakeFirst();
      if (!row) return VIDEO_SETTINGS_DEFAULTS;
      const parsed = VideoSettingsSchema.safeParse({ ...VIDEO_SETTINGS_DEFAULTS, ...JSON.parse(row.value) });
      return parsed.success ? parsed.data : VIDEO_SETTINGS_DEFAULTS;
    },

    async setVideo(settings: VideoSettings): Promise<VideoSettings> {
      const value = JSON.stringify(settings);
      await db
        .insertInto('settings')
        .values({ key: VIDEO, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
        .execute();
      return settings;
    },

    /** Issue 50: the organisation's time zone (an IANA name) for reports' days and hours; null: none chosen. */
    async timeZone(): Promise<string | null> {
      const row = await db.selectFrom('settings').select('value').where('key', '=', TIME_ZONE).executeTakeFirst();
      if (!row) return null;
      const value: unknown = JSON.parse(row.value);
      return typeof value === 'string' && isTimeZone(value) ? value : null;
    },

    /** Sets it (an IANA name, checked by the caller), or with null goes back to the server's. */
    async setTimeZone(name: string | null): Promise<void> {
      if (name === null) {
        await db.deleteFrom('settings').where('key', '=', TIME_ZONE).execute();
        return;
      }
      const value = JSON.stringify(name);
      await db
        .insertInto('settings')
        .values({ key: TIME_ZONE, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
        .execute();
    },
  };
}

export type SettingsStore = ReturnType<typeof settingsStore>;
