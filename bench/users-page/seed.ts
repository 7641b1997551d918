/**
 * The users page bench's data (run.ts): users, channels, memberships and activities written straight into a
 * server's SQLite file, all with the administrator's password hash (hashing thousands through the API would
 * take minutes and is not what is measured).
 */
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Account, TalkgroupServer } from '../../e2e/fixtures.ts';
import { searchTextOf } from '../../packages/server/src/db/search-text.ts';

const CHANNELS = 50;

/** Users, channels, memberships and one activity each, straight into the server's SQLite file. */
export function seed(server: TalkgroupServer, admin: Account, count: number): void {
  const db = new DatabaseSync(path.join(server.dataDir, 'talkgroup.sqlite'));
  db.exec('PRAGMA busy_timeout = 10000');
  const hash = (db.prepare('SELECT password_hash FROM users WHERE id = ?').get(admin.id) as { password_hash: string })
    .password_hash;
  const start = Date.now() - 90 * 24 * 3600 * 1000;
  const at = (i: number, of: number) => new Date(start + Math.floor((i / of) * 89 * 24 * 3600 * 1000)).toISOString();
  db.exec('BEGIN');
  const channel = db.prepare('INSERT INTO channels (name, rtc_session, created_at) VALUES (?, ?, ?) RETURNING id');
  const channelIds: number[] = [];
  for (let c = 0; c < CHANNELS; c++) {
    channelIds.push((channel.get(`Canal ${c}`, `Canal${c}`, at(c, CHANNELS)) as { id: number }).id);
  }
  const user = db.prepare(
    `INSERT INTO users (first_name, last_name, identifier, pseudo, display_name, phone_number, password_hash,
       map_right, role, photo_url, created_at, search_text)
     VALUES (?, ?, ?, ?, ?, '', ?, ?, 'member', NULL, ?, ?) RETURNING id`,
  );
  const member = db.prepare('INSERT INTO channel_members (channel_id, user_id, created_at) VALUES (?, ?, ?)');
  const activity = db.prepare(
    `INSERT INTO activities (type, user_id, user_first_name, user_last_name, user_display_name, channel_id,
       channel_name, created_at) VALUES ('channel_join', ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (let i = 0; i < count; i++) {
    const first = `First${i}`;
    const last = `Last${i}`;
    const created = at(i, count);
    const names = {
      first_name: first,
      last_name: last,
      identifier: `bench${i}@example.org`,
      pseudo: `b${i}`,
      display_name: `${first} ${last}`,
    };
    const { id } = user.get(
      first,
      last,
      names.identifier,
      names.pseudo,
      names.display_name,
      hash,
      i % 3 ? 0 : 1,
      created,
      searchTextOf(names),
    ) as {
      id: number;
    };
    const a = channelIds[i % CHANNELS];
    const b = channelIds[(i * 7 + 3) % CHANNELS];
    member.run(a, id, created);
    if (b !== a) member.run(b, id, created);
    activity.run(id, first, last, `${first} ${last}`, a, `Canal ${i % CHANNELS}`, created);
  }
  db.exec('COMMIT');
  db.close();
}
