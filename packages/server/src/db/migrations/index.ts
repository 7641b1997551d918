/**
 * Versioned migrations, run at start on SQLite and PostgreSQL: one file per migration in this folder, named
 * after the migration (`0008_list_changes.ts` is '0008_list_changes'). Append new ones; never edit a shipped one,
 * nor rename it: databases record the names they ran.
 *
 * To add a migration: create `NNNN_what.ts` here (the next free number) exporting
 * `migration(dialect: Dialect): Migration` (columns.ts has the dialect's column types), then import it below and
 * add it to MIGRATIONS under its file name. The list is static, not read from the folder: the server loads
 * pre-stripped JavaScript through a module hook (packages/server/start.js).
 */
import { type Kysely, sql } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { migration as m0001 } from './0001_initial.ts';
import { migration as m0002 } from './0002_activity_count.ts';
import { migration as m0003 } from './0003_floor_and_emergency.ts';
import { migration as m0004 } from './0004_voice_history.ts';
import { migration as m0005 } from './0005_hardening.ts';
import { migration as m0006 } from './0006_console_day.ts';
import { migration as m0007 } from './0007_performance.ts';
import { migration as m0008 } from './0008_list_changes.ts';
import { migration as m0009 } from './0009_user_search.ts';
import { migration as m0010 } from './0010_roles_and_participations.ts';
import { migration as m0011 } from './0011_voice_mode.ts';
import { migration as m0012 } from './0012_trails_and_geofences.ts';
import { migration as m0014 } from './0014_dispatch_console.ts';
import { migration as m0015 } from './0015_import_jobs.ts';
import { migration as m0016 } from './0016_private_calls_and_voice_grants.ts';
import { migration as m0017 } from './0017_push.ts';
import { migration as m0018 } from './0018_sign_in.ts';
import { migration as m0019 } from './0019_second_factor.ts';
import { migration as m0020 } from './0020_identity_providers.ts';
import { migration as m0021 } from './0021_passkeys.ts';
import { migration as m0022 } from './0022_disabled_accounts.ts';
import { migration as m0023 } from './0023_missed_transmissions.ts';
import { migration as m0024 } from './0024_scan_list.ts';
import { migration as m0025 } from './0025_sign_in_review.ts';
import { migration as m0026 } from './0026_passkey_user_verification.ts';
import { migration as m0027 } from './0027_push_limits.ts';
import { migration as m0028 } from './0028_private_calls_by_time.ts';
import { migration as m0029 } from './0029_talk_burst_grants.ts';
import { migration as m0030 } from './0030_dispatch_queue_and_statuses.ts';
import { migration as m0031 } from './0031_reports.ts';
import { migration as m0032 } from './0032_report_indexes.ts';
import { migration as m0033 } from './0033_gateways.ts';
import { migration as m0034 } from './0034_gateway_simultaneous_calls.ts';
import { migration as m0035 } from './0035_dispatch_close_outcome.ts';
import { migration as m0036 } from './0036_talk_priority.ts';
import { migration as m0037 } from './0037_floor_queue.ts';
import { migration as m0038 } from './0038_regroups.ts';
import { migration as m0039 } from './0039_aliases.ts';
import { migration as m0040 } from './0040_area_channels.ts';
import { migration as m0041 } from './0041_lone_workers.ts';
import { migration as m0042 } from './0042_device_status.ts';
import { migration as m0043 } from './0043_live_video.ts';
import { migration as m0044 } from './0044_video_evidence.ts';
import { migration as m0045 } from './0045_member_rights_only.ts';
import { migration as m0046 } from './0046_alias_take_roles.ts';
import { migration as m0047 } from './0047_passkey_sessions.ts';
import { migration as m0048 } from './0048_alert_ok.ts';
import type { AnyDb } from './columns.ts';

/** Every migration by name: the name is its file's, without `.ts`. */
export const MIGRATIONS: Record<string, (dialect: Dialect) => Migration> = {
  '0001_initial': m0001,
  '0002_activity_count': m0002,
  '0003_floor_and_emergency': m0003,
  '0004_voice_history': m0004,
  '0005_hardening': m0005,
  '0006_console_day': m0006,
  '0007_performance': m0007,
  '0008_list_changes': m0008,
  '0009_user_search': m0009,
  '0010_roles_and_participations': m0010,
  '0011_voice_mode': m0011,
  '0012_trails_and_geofences': m0012,
  '0014_dispatch_console': m0014,
  '0015_import_jobs': m0015,
  '0016_private_calls_and_voice_grants': m0016,
  '0017_push': m0017,
  '0018_sign_in': m0018,
  '0019_second_factor': m0019,
  '0020_identity_providers': m0020,
  '0021_passkeys': m0021,
  '0022_disabled_accounts': m0022,
  '0023_missed_transmissions': m0023,
  '0024_scan_list': m0024,
  '0025_sign_in_review': m0025,
  '0026_passkey_user_verification': m0026,
  '0027_push_limits': m0027,
  '0028_private_calls_by_time': m0028,
  '0029_talk_burst_grants': m0029,
  '0030_dispatch_queue_and_statuses': m0030,
  '0031_reports': m0031,
  '0032_report_indexes': m0032,
  '0033_gateways': m0033,
  '0034_gateway_simultaneous_calls': m0034,
  '0035_dispatch_close_outcome': m0035,
  '0036_talk_priority': m0036,
  '0037_floor_queue': m0037,
  '0038_regroups': m0038,
  '0039_aliases': m0039,
  '0040_area_channels': m0040,
  '0041_lone_workers': m0041,
  '0042_device_status': m0042,
  '0043_live_video': m0043,
  '0044_video_evidence': m0044,
  '0045_member_rights_only': m0045,
  '0046_alias_take_roles': m0046,
  '0047_passkey_sessions': m0047,
  '0048_alert_ok': m0048,
};

function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return Object.fromEntries(Object.entries(MIGRATIONS).map(([name, migration]) => [name, migration(dialect)]));
}

/**
 * True when the database already records every migration: the usual start, answered by one read instead of
 * Kysely's introspection of every schema's tables (slow on a PostgreSQL database holding many schemas).
 */
async function allApplied(db: AnyDb, names: string[], schema: string | undefined): Promise<boolean> {
  const exists = schema
    ? sql<{ found: string | null }>`select to_regclass(${`${schema}.kysely_migration`}) as found`
    : sql<{
        found: string | null;
      }>`select name as found from sqlite_master where type = 'table' and name = 'kysely_migration'`;
  const [found] = (await exists.execute(db)).rows;
  // No migration table yet: a new database.
  if (!found?.found) return false;
  const table = schema ? sql`${sql.id(schema)}.kysely_migration` : sql`kysely_migration`;
  const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(db);
  const applied = new Set(rows.map((row) => row.name));
  return names.every((name) => applied.has(name));
}

export async function migrate(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const migrations = migrationsFor(dialect);
  // Kysely looks for its migration tables in every schema unless told which one: on a PostgreSQL database
  // that holds other schemas (parallel test runs, other apps), it would find theirs and skip creating its own.
  const migrationTableSchema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db as AnyDb)).rows[0]?.schema
      : undefined;
  if (await allApplied(db as AnyDb, Object.keys(migrations), migrationTableSchema)) return;
  const migrator = new Migrator({
    db: db as AnyDb,
    provider: { getMigrations: async () => migrations },
    // Features land in parallel with their own numbers; a database that has a later one may still lack an earlier one.
    allowUnorderedMigrations: true,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  // Kysely's PostgreSQL introspection reads every schema's tables; a schema dropped meanwhile by another
  // process (parallel test runs) makes that read fail with "does not exist". Nothing was applied: try again.
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (!error && !failed) return;
    const racedWithADrop = dialect === 'postgres' && !failed && /does not exist/.test(String(error));
    if (!racedWithADrop || attempt === 3) {
      throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
    }
  }
}
