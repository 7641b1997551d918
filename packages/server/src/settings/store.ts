/** The organisation's settings (issue 27): one JSON value per key, with its defaults. */
import { type CallSettings, CallSettingsSchema, type SecurityPolicy, SecurityPolicySchema } from '@talkgroup/protocol';
import type { Db } from '../db/schema.ts';

const CALLS = 'calls';
const CALL_DEFAULTS: CallSettings = { membersMayCallMembers: false };
const SECURITY = 'security';
const SECURITY_DEFAULTS: SecurityPolicy = { requireSecondFactor: [] };

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
  };
}

export type SettingsStore = ReturnType<typeof settingsStore>;
