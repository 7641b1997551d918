/**
 * `npm run restore -- <file>`: puts a backup (backup.ts) into an empty DATA_DIR — the SQLite database, the
 * uploaded images, the voice recordings and the signing key — and then `npm start` serves it. With
 * PostgreSQL, restore the database with pg_restore first (docs/operators/backups.md); this puts back the files and the key.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Config, ConfigError, loadConfig } from '../config/config.ts';
import { readArchive } from './archive.ts';
import { DATABASE_FILE, KEY_FILE } from './backup.ts';

export function restoreBackup(config: Config, file: string): { dialect: string; files: number } {
  if (existsSync(config.dataDir) && readdirSync(config.dataDir).length > 0) {
    throw new ConfigError(`${config.dataDir} is not empty: restore into an empty DATA_DIR (move the old one away).`);
  }
  const entries = readArchive(file);
  const manifestBytes = entries.get('manifest.json');
  if (!manifestBytes) throw new ConfigError(`${file} is not a Talkgroup backup (no manifest).`);
  const manifest = JSON.parse(manifestBytes.toString('utf8')) as { dialect: string };
  if (manifest.dialect === 'sqlite' && !entries.has(DATABASE_FILE))
    throw new ConfigError(`${file} has no database although it was taken from SQLite.`);
  mkdirSync(config.dataDir, { recursive: true });
  let files = 0;
  for (const [name, bytes] of entries) {
    if (name === 'manifest.json') continue;
    if (name === DATABASE_FILE && config.databaseUrl) continue;
    const target = path.join(config.dataDir, ...name.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, bytes);
    if (name === KEY_FILE) chmodSync(target, 0o600);
    files++;
  }
  return { dialect: manifest.dialect, files };
}

if (import.meta.main) {
  const source = process.argv[2];
  if (!source) {
    console.error('Usage: npm run restore -- <file.zip>');
    process.exit(2);
  }
  try {
    const config = loadConfig();
    const file = path.resolve(process.env.INIT_CWD || process.cwd(), source);
    const report = restoreBackup(config, file);
    console.log(`Restored ${report.files} files into ${config.dataDir}.`);
    if (report.dialect === 'postgres' || config.databaseUrl)
      console.log('PostgreSQL: restore the database with pg_restore (see the README) before starting.');
  } catch (error) {
    console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
