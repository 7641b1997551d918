/**
 * Arranging what the HTTP API cannot: a test server's SQLite file (DATA_DIR/talkgroup.sqlite), opened beside
 * the running server (WAL mode lets both work). Used to give users and channels known creation dates and to
 * lay down an activity log of a known shape. Never used to read what a test asserts: assertions go through
 * the browser.
 */
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { searchTextOf } from '../packages/server/src/db/search-text.ts';
import type { TalkgroupServer } from './fixtures.ts';

export const DAY_MS = 24 * 60 * 60 * 1000;
export const HOUR_MS = 60 * 60 * 1000;

export interface SeedActivity {
  type: string;
  createdAt: Date;
  user?: { id: number | null; firstName: string; lastName: string } | null;
  channel?: { id: number | null; name: string } | null;
}

export interface SeedMember {
  firstName: string;
  lastName: string;
  identifier: string;
  pseudo: string;
  createdAt: Date;
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
  /**
   * Inserts members in one transaction, each with the password hash of `passwordOf` (a user id): an
   * organisation of thousands without hashing thousands of passwords. Returns their ids.
   */
  insertMembers(members: SeedMember[], passwordOf: number): number[];
  /** The user's sessions proved it was them long ago: a sensitive change asks "Confirm it's you" (issue 47). */
  forgetConfirmations(userId: number): void;
  close(): void;
}

export function openServerDatabase(server: Pick<TalkgroupServer, 'dataDir'>): ServerDatabase {
  const db = new DatabaseSync(path.join(server.dataDir, 'talkgroup.sqlite'));
  db.exec('PRAGMA busy_timeout = 5000');
  return {
    forgetConfirmations(userId) {
      db.prepare('UPDATE sessions SET confirmed_at = NULL WHERE user_id = ?').run(userId);
    },
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
    insertMembers(members, passwordOf) {
      const { password_hash: hash } = db.prepare('SELECT password_hash FROM users WHERE id = ?').get(passwordOf) as {
        password_hash: string;
      };
      const insert = db.prepare(
        `INSERT INTO users (first_name, last_name, identifier, pseudo, display_name, phone_number, password_hash,
           map_right, role, photo_url, created_at, search_text) VALUES (?, ?, ?, ?, ?, '', ?, 0, 'member', NULL, ?, ?)
         RETURNING id`,
      );
      const ids: number[] = [];
      db.exec('BEGIN');
      try {
        for (const m of members) {
          const names = {
            first_name: m.firstName,
            last_name: m.lastName,
            identifier: m.identifier,
            pseudo: m.pseudo,
            display_name: `${m.firstName} ${m.lastName}`,
          };
          const row = insert.get(
            m.firstName,
            m.lastName,
            m.identifier,
            m.pseudo,
            names.display_name,
            hash,
            m.createdAt.toISOString(),
            searchTextOf(names),
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
    close() {
      db.close();
    },
  };
}
