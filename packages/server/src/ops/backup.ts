/**
 * `npm run backup -- <file>`: one archive with a consistent copy of the SQLite database taken while the
 * server runs (node:sqlite backup(): a snapshot, whatever is written meanwhile), then the uploaded images,
 * the voice recordings and the signing key of file links. With PostgreSQL the database is left to
 * pg_dump (docs/operators/backups.md) and the archive holds the files and the key.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { backup, DatabaseSync } from 'node:sqlite';
import { type Config, ConfigError, loadConfig } from '../config/config.ts';
import { type ArchiveEntry, writeArchive } from './archive.ts';

export const DATABASE_FILE = 'talkgroup.sqlite';
export const DATA_FOLDERS = ['uploads', 'voice'];
export const KEY_FILE = 'secret.key';

function filesUnder(root: string, folder: string): ArchiveEntry[] {
  const dir = path.join(root, folder);
  if (!existsSync(dir)) return [];
  const entries: ArchiveEntry[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    const relative = `${folder}/${name}`;
    if (statSync(full).isDirectory()) entries.push(...filesUnder(root, relative));
    else entries.push({ name: relative, file: full });
  }
  return entries;
}

export interface BackupReport {
  dialect: 'sqlite' | 'postgres';
  files: number;
}

export async function createBackup(config: Config, target: string): Promise<BackupReport> {
  const dialect = config.databaseUrl ? 'postgres' : 'sqlite';
  const work = mkdtempSync(path.join(tmpdir(), 'talkgroup-backup-'));
  try {
    const entries: ArchiveEntry[] = [];
    if (dialect === 'sqlite') {
      const source = path.join(config.dataDir, DATABASE_FILE);
      if (!existsSync(source)) throw new ConfigError(`No database in ${config.dataDir}: is DATA_DIR right?`);
      const database = new DatabaseSync(source);
      try {
        database.exec('PRAGMA busy_timeout = 5000');
        // Every page in one step: one consistent snapshot, not restarted by the server's writes.
        await backup(database, path.join(work, DATABASE_FILE), { rate: 1_000_000_000 });
      } finally {
        database.close();
      }
      entries.push({ name: DATABASE_FILE, file: path.join(work, DATABASE_FILE) });
    }
    // After the database: every file a row of the copy names was written before that row.
    for (const folder of DATA_FOLDERS) entries.push(...filesUnder(config.dataDir, folder));
    const key = path.join(config.dataDir, KEY_FILE);
    if (existsSync(key)) entries.push({ name: KEY_FILE, file: key });
    const files = entries.length;
    const manifest = {
      format: 1,
      dialect,
      createdAt: new Date().toISOString(),
      version: process.env.npm_package_version,
    };
    entries.push({ name: 'manifest.json', bytes: Buffer.from(JSON.stringify(manifest, null, 2)) });
    await writeArchive(path.resolve(target), entries);
    return { dialect, files };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const target = process.argv[2];
  if (!target) {
    console.error('Usage: npm run backup -- <file.zip>');
    process.exit(2);
  }
  try {
    const config = loadConfig();
    const file = path.resolve(process.env.INIT_CWD || process.cwd(), target);
    const report = await createBackup(config, file);
    console.log(`Backup written to ${file} (${report.files} files).`);
    if (report.dialect === 'postgres')
      console.log('PostgreSQL: the database is not in the archive; dump it with pg_dump (see the README).');
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
}
