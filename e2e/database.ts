/**
 * Arranging what the HTTP API cannot: a test server's SQLite file (DATA_DIR/talkgroup.sqlite), opened beside
 * the running server (WAL mode lets both work). Used to give users and channels known creation dates and to
 * lay down an activity log of a known shape. Never used to read what a test asserts: assertions go through
 * the browser.
 */
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { TalkgroupServer } from './fixtures.ts';

export const DAY_MS = 24 * 60 * 60 * 1000;
export const HOUR_MS = 60 * 60 * 1000;

export interface SeedActivity {
  type: string;
  createdAt: Date;
  user?: { id: number | null; firstName: string; lastName: string } | null;
  channel?: { id: number | null; name: string } | null;
}

export interface ServerDatabase {
  /** Sets created_at of a user or channel. */
  setCreatedAt(table: 'users' | 'channels', id: number, at: Date): void;
  /** Inserts activities in one transaction; returns their ids. */
  insertActivities(activities: SeedActivity[]): number[];
  /** Makes a user's recorded positions look this old. */
  agePositions(userId: number, at: Date): void;
  /** Removes every activity (the log's count follows through its triggers). */
  clearActivities(): void;
  close(): void;
}

export function openServerDatabase(server: Pick<TalkgroupServer, 'dataDir'>): ServerDatabase {
  const db = new DatabaseSync(path.join(server.dataDir, 'talkgroup.sqlite'));
  db.exec('PRAGMA busy_timeout = 5000');
  return {
    setCreatedAt(table, id, at) {
      const statement =
        table === 'users'
          ? db.prepare('UPDATE users SET created_at = ? WHERE id = ?')
          : db.prepare('UPDATE channels SET created_at = ? WHERE id = ?');
      const result = statement.run(at.toISOString(), id);
      if (result.changes !== 1) throw new Error(`no ${table} row with id ${id}`);
    },
    insertActivities(activities) {
      const insert = db.prepare(
        `INSERT INTO activities (type, user_id, user_first_name, user_last_name, user_display_name, channel_id,
           channel_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      );
      const ids: number[] = [];
      db.exec('BEGIN');
      try {
        for (const a of activities) {
          const row = insert.get(
            a.type,
            a.user?.id ?? null,
            a.user?.firstName ?? null,
            a.user?.lastName ?? null,
            a.user ? `${a.user.firstName} ${a.user.lastName}` : null,
            a.channel?.id ?? null,
            a.channel?.name ?? null,
            a.createdAt.toISOString(),
          ) as { id: number };
          ids.push(row.id);
        }
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
      return ids;
    },
    agePositions(userId, at) {
      db.prepare('UPDATE user_positions SET created_at = ? WHERE user_id = ?').run(at.toISOString(), userId);
    },
    clearActivities() {
      db.exec('DELETE FROM activities');
    },
    close() {
      db.close();
    },
  };
}
