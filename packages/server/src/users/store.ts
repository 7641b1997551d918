/** Users: rows in, DTOs of spec section 3 out (never a password hash). */
import {
  type Activity,
  type ChannelRef,
  displayNameOf,
  type Role,
  rtcSessionOf,
  type User,
  type UserExportRow,
  type UserPosition,
  type UserSocket,
} from '@talkgroup/protocol';
import type { Selectable } from 'kysely';
import { toActivity } from '../activities/store.ts';
import { hashPassword } from '../auth/passwords.ts';
import { inSlices } from '../db/batch.ts';
import { latestRowId } from '../db/latest-row.ts';
import type { Db, UsersTable } from '../db/schema.ts';
import { searchTextOf } from '../db/search-text.ts';
import { type AccountRights, rightsOfRow } from './account-rights.ts';

export interface NewUser {
  firstName: string;
  lastName: string;
  identifier: string;
  pseudo?: string;
  phoneNumber?: string;
  password: string;
  /** The password already hashed (an import hashes on a pool of its own: auth/hash-pool.ts). */
  passwordHash?: string;
  mapRight?: boolean;
  role: Role;
  talkPriority?: number | null;
}

export interface UserChanges {
  firstName?: string;
  lastName?: string;
  identifier?: string;
  pseudo?: string;
  phoneNumber?: string;
  password?: string;
  /** The new password already hashed (instead of `password`). */
  passwordHash?: string;
  mapRight?: boolean;
  /** 1 to 9 (issue 59), or null for the role's default (absent: unchanged; on NewUser: the role's). */
  talkPriority?: number | null;
}

/** How much history each user carries: lists need the latest entry, a single user a page of it. */
export type Depth = 'list' | 'full';
const HISTORY: Record<Depth, number> = { list: 1, full: 20 };

type UserRow = Selectable<UsersTable>;

export function userStore(db: Db) {
  /**
   * The lists each user carries. `everyone`: the rows are the whole table, so each list is read in one pass
   * without a filter; otherwise the ids are asked in slices of at most 500 (db/batch.ts): the cost follows the
   * rows asked at any size.
   */
  async function attach(rows: UserRow[], depth: Depth, everyone = false): Promise<User[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const limit = HISTORY[depth];
    const bySlices = <R>(read: (slice: number[] | undefined) => Promise<R[]>): Promise<R[]> =>
      everyone ? read(undefined) : inSlices(ids, read);

    const memberships = await bySlices((slice) =>
      db
        .selectFrom('channel_members')
        .innerJoin('channels', 'channels.id', 'channel_members.channel_id')
        .select(['channel_members.user_id as userId', 'channels.id', 'channels.name', 'channels.rtc_session'])
        .where('channels.hidden', '=', 0)
        .$if(slice !== undefined, (q) => q.where('channel_members.user_id', 'in', slice as number[]))
        .orderBy('channels.name')
        .execute(),
    );
    const sockets = await bySlices((slice) =>
      db
        .selectFrom('user_sockets')
        .select(['user_id', 'channel_id', 'socket_id'])
        .$if(slice !== undefined, (q) => q.where('user_id', 'in', slice as number[]))
        // One order whichever way the rows are read (the whole lists build a user again on its own).
        .orderBy('id')
        .execute(),
    );

    const positions: Array<UserPosition & { userId: number }> = [];
    const activities: Array<Activity & { userId: number }> = [];
    if (limit === 1) {
      // One index lookup per user: the latest position and the latest activity.
      const latestPositions = await bySlices((slice) =>
        db
          .selectFrom('users')
          .innerJoin('user_positions as p', (join) =>
            join.on('p.id', '=', latestRowId('user_positions', 'user_id', 'users')),
          )
          .select(['p.user_id', 'p.lat', 'p.lng', 'p.accuracy', 'p.created_at'])
          .$if(slice !== undefined, (q) => q.where('users.id', 'in', slice as number[]))
          .execute(),
      );
      for (const p of latestPositions)
        positions.push({ userId: p.user_id, lat: p.lat, lng: p.lng, accuracy: p.accuracy, createdAt: p.created_at });
      const latestActivities = await bySlices((slice) =>
        db
          .selectFrom('users')
          .innerJoin('activities as a', (join) => join.on('a.id', '=', latestRowId('activities', 'user_id', 'users')))
          .selectAll('a')
          .$if(slice !== undefined, (q) => q.where('users.id', 'in', slice as number[]))
          .execute(),
      );
      for (const a of latestActivities) activities.push({ ...toActivity(a), userId: a.user_id as number });
    } else {
      for (const id of ids) {
        const ps = await db
          .selectFrom('user_positions')
          .selectAll()
          .where('user_id', '=', id)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .execute();
        for (const p of ps)
          positions.push({ userId: id, lat: p.lat, lng: p.lng, accuracy: p.accuracy, createdAt: p.created_at });
        const as = await db
          .selectFrom('activities')
          .selectAll()
          .where('user_id', '=', id)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .execute();
        for (const a of as) activities.push({ ...toActivity(a), userId: id });
      }
    }

    const group = <T extends { userId: number }>(items: T[]) => {
      const map = new Map<number, T[]>();
      for (const item of items) {
        const list = map.get(item.userId);
        if (list) list.push(item);
        else map.set(item.userId, [item]);
      }
      return map;
    };
    const channelsBy = group(memberships);
    const socketsBy = group(
      sockets.map((s) => ({ userId: s.user_id, channelId: s.channel_id, socket_id: s.socket_id })),
    );
    const positionsBy = group(positions);
    const activitiesBy = group(activities);

    return rows.map((row) => ({
      id: row.id,
      firstName: row.first_name,
      lastName: row.last_name,
      identifier: row.identifier,
      email: row.identifier,
      pseudo: row.pseudo,
      display_name: row.display_name,
      phone_number: row.phone_number,
      photo_url: row.photo_url,
      mapRight: row.map_right === 1,
      role: row.role,
      talkPriority: rightsOfRow(row).talkPriority,
      talkPriorityFromRole: row.talk_priority === null,
      createdAt: row.created_at,
      disabled: row.disabled_at !== null,
      channels: (channelsBy.get(row.id) ?? []).map(
        (c): ChannelRef => ({ id: c.id, name: c.name, rtcSession: c.rtc_session || rtcSessionOf(c.name) }),
      ),
      user_sockets: (socketsBy.get(row.id) ?? []) as UserSocket[],
      userPositions: (positionsBy.get(row.id) ?? []).map(({ userId: _, ...p }) => p),
      userActivities: (activitiesBy.get(row.id) ?? []).map(({ userId: _, ...a }) => a),
    }));
  }

  return {
    /** The people's accounts (a SIP gateway's account is none: it is left out of every list and count of people). */
    async count(): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('gateway', '=', 0)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    row(id: number): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** What these users' accounts allow them (their role, map access and talk priority), by id: those that exist. */
    async rightsOf(ids: readonly number[]): Promise<Map<number, AccountRights>> {
      const rows = await inSlices([...new Set(ids)], (slice) =>
        db.selectFrom('users').select(['id', 'role', 'map_right', 'talk_priority']).where('id', 'in', slice).execute(),
      );
      return new Map(rows.map((row) => [row.id, rightsOfRow(row)]));
    },

    rowByIdentifier(identifier: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('identifier', '=', identifier.trim().toLowerCase())
        .executeTakeFirst();
    },

    async existingIdentifiers(identifiers: string[]): Promise<Set<string>> {
      const found = new Set<string>();
      for (let i = 0; i < identifiers.length; i += 500) {
        const chunk = identifiers.slice(i, i + 500);
        const rows = await db.selectFrom('users').select('identifier').where('identifier', 'in', chunk).execute();
        for (const r of rows) found.add(r.identifier);
      }
      return found;
    },

    async one(id: number, depth: Depth = 'full'): Promise<User | undefined> {
      const row = await this.row(id);
      return row ? (await attach([row], depth))[0] : undefined;
    },

    async all(): Promise<User[]> {
      const rows = await db
        .selectFrom('users')
        .selectAll()
        .where('gateway', '=', 0)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return attach(rows, 'list', true);
    },

    /** These rows as the lists show them (getAllUsers' fields), in the same order. */
    listed(rows: UserRow[]): Promise<User[]> {
      return attach(rows, 'list');
    },

    /**
     * These users as the lists show them (getAllUsers' fields), in no order; ids no longer there (or a gateway's
     * account, which no list shows) are left out.
     */
    async listedByIds(ids: number[]): Promise<User[]> {
      const rows = await inSlices(ids, (slice) =>
        db.selectFrom('users').selectAll().where('id', 'in', slice).where('gateway', '=', 0).execute(),
      );
      return attach(rows, 'list');
    },

    async inChannel(channelId: number): Promise<User[]> {
      const rows = await db
        .selectFrom('users')
        .innerJoin('channel_members', 'channel_members.user_id', 'users.id')
        .selectAll('users')
        .where('channel_members.channel_id', '=', channelId)
        .where('users.gateway', '=', 0)
        .orderBy('users.first_name')
        .execute();
      return attach(rows, 'list');
    },

    async exportRows(): Promise<UserExportRow[]> {
      const users = await this.all();
      return users.map((u) => ({
        firstName: u.firstName,
        lastName: u.lastName,
        identifier: u.identifier,
        pseudo: u.pseudo,
        mapRight: u.mapRight,
        canal: u.channels.map((c) => c.name).join(';'),
        role: u.role,
        talkPriority: u.talkPriorityFromRole ? null : u.talkPriority,
        createdAt: u.createdAt,
      }));
    },

    async create(user: NewUser, at = new Date()): Promise<number> {
      const names = {
        first_name: user.firstName.trim(),
        last_name: user.lastName.trim(),
        identifier: user.identifier.trim().toLowerCase(),
        pseudo: (user.pseudo ?? '').trim(),
        display_name: displayNameOf({ firstName: user.firstName, lastName: user.lastName }),
      };
      const row = await db
        .insertInto('users')
        .values({
          ...names,
          search_text: searchTextOf(names),
          phone_number: (user.phoneNumber ?? '').trim(),
          password_hash: user.passwordHash ?? (await hashPassword(user.password)),
          map_right: user.mapRight ? 1 : 0,
          role: user.role,
          talk_priority: user.talkPriority ?? null,
          photo_url: null,
          created_at: at.toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async update(id: number, changes: UserChanges): Promise<void> {
      const current = await this.row(id);
      if (!current) return;
      const firstName = changes.firstName?.trim() ?? current.first_name;
      const lastName = changes.lastName?.trim() ?? current.last_name;
      const names = {
        first_name: firstName,
        last_name: lastName,
        display_name: displayNameOf({ firstName, lastName }),
        identifier: changes.identifier?.trim().toLowerCase() ?? current.identifier,
        pseudo: changes.pseudo?.trim() ?? current.pseudo,
      };
      await db
        .updateTable('users')
        .set({
          ...names,
          search_text: searchTextOf(names),
          ...(changes.phoneNumber !== undefined ? { phone_number: changes.phoneNumber.trim() } : {}),
          ...(changes.mapRight !== undefined ? { map_right: changes.mapRight ? 1 : 0 } : {}),
          ...(changes.talkPriority !== undefined ? { talk_priority: changes.talkPriority } : {}),
          ...(changes.passwordHash
            ? { password_hash: changes.passwordHash }
            : changes.password
              ? { password_hash: await hashPassword(changes.password) }
              : {}),
        })
        .where('id', '=', id)
        .execute();
    },

    /** How many users have this role. */
    async countWithRole(role: Role): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('role', '=', role)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /**
     * Gives a user a role, unless that leaves no administrator (false then). Decided where it is written, so
     * that two administrators demoting each other at once leave one.
     */
    async changeRole(id: number, role: Role): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        // Locks the administrators' rows (PostgreSQL; SQLite has one writer at a time anyway): a demotion
        // running at the same time waits for this transaction and counts what it left.
        await trx
          .updateTable('users')
          .set((eb) => ({ role: eb.ref('role') }))
          .where('role', '=', 'admin')
          .execute();
        const current = await trx.selectFrom('users').select('role').where('id', '=', id).executeTakeFirst();
        if (!current) return false;
        if (current.role === 'admin' && role !== 'admin') {
          const left = await trx
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('role', '=', 'admin')
            .where('id', '!=', id)
            .executeTakeFirstOrThrow();
          if (Number(left.n) === 0) return false;
        }
        await trx.updateTable('users').set({ role }).where('id', '=', id).execute();
        return true;
      });
    },

    /** A hash of the same password with today's figures (passwords.ts needsRehash). */
    async setPasswordHash(id: number, passwordHash: string): Promise<void> {
      await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
    },

    async setPhoto(id: number, photoUrl: string): Promise<void> {
      await db.updateTable('users').set({ photo_url: photoUrl }).where('id', '=', id).execute();
    },

    /** Turns an account off (now) or on again; false when there is no such user. */
    async setDisabled(id: number, disabled: boolean, at = new Date()): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ disabled_at: disabled ? at.toISOString() : null })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async remove(id: number): Promise<boolean> {
      const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type UserStore = ReturnType<typeof userStore>;
