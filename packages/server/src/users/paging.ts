/**
 * The users list a page at a time (issue 18: getUsersPage, getUserIds), for organisations too large for the
 * whole list: searched in users.search_text (folded names, migration 0009), sorted on the server, each page's
 * users with getAllUsers' fields. A page reads its rows and their lists only (db/batch.ts slices), plus one
 * count; sorting by last activity reads each user's latest activity through activities_user_time.
 */
import type { Role, UserSortField } from '@talkgroup/protocol';
import { type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Database, Db } from '../db/schema.ts';
import { containsPattern } from '../db/search-text.ts';
import type { UserStore } from './store.ts';

export interface UsersPageRequest {
  start: number;
  limit: number;
  search?: string;
  sort: UserSortField;
  direction: 'asc' | 'desc';
  /** Only the users with this status; null, those without one (issue 49). */
  statusId?: number | null;
  /** Only the users of this role (issue 58). */
  role?: Role;
}

type UsersQuery<O> = SelectQueryBuilder<Database, 'users', O>;

/** The people searched for: a SIP gateway's account (users.gateway = 1) is in no list of people. */
function searched<O>(query: UsersQuery<O>, search: string | undefined): UsersQuery<O> {
  const people = query.where('users.gateway', '=', 0);
  if (!search?.trim()) return people;
  return people.where(sql<boolean>`search_text like ${containsPattern(search)} escape '\\'`);
}

/** The users with this status, or without one (null); every user when undefined. */
function withStatus<O>(query: UsersQuery<O>, statusId: number | null | undefined): UsersQuery<O> {
  if (statusId === undefined) return query;
  return statusId === null ? query.where('users.status_id', 'is', null) : query.where('users.status_id', '=', statusId);
}

/** The users of this role; every user when undefined. */
function withRole<O>(query: UsersQuery<O>, role: Role | undefined): UsersQuery<O> {
  return role === undefined ? query : query.where('users.role', '=', role);
}

/** The column or expression each sort reads; names compare without case (lower() folds ASCII on SQLite). */
function sortKey(sort: UserSortField) {
  return (eb: ExpressionBuilder<Database, 'users'>) => {
    switch (sort) {
      case 'firstName':
        return eb.fn('lower', ['users.first_name']);
      case 'lastName':
        return eb.fn('lower', ['users.last_name']);
      case 'identifier':
        return eb.ref('users.identifier');
      case 'pseudo':
        return eb.fn('lower', ['users.pseudo']);
      case 'mapRight':
        return eb.ref('users.map_right');
      case 'createdAt':
        return eb.ref('users.created_at');
      case 'role':
        return eb.ref('users.role');
      case 'lastActivity':
        return eb
          .selectFrom('activities')
          .select((inner) => inner.fn.max('activities.created_at').as('at'))
          .whereRef('activities.user_id', '=', 'users.id');
    }
  };
}

export function userPaging(db: Db, users: UserStore) {
  return {
    async page(request: UsersPageRequest) {
      const { start, limit, search, sort, direction, statusId, role } = request;
      const [rows, count] = await Promise.all([
        withRole(withStatus(searched(db.selectFrom('users').selectAll('users'), search), statusId), role)
          .orderBy(sortKey(sort), direction)
          .orderBy('users.id', direction)
          .limit(limit)
          .offset(start)
          .execute(),
        withRole(withStatus(searched(db.selectFrom('users'), search), statusId), role)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { users: await users.listed(rows), totalRecords: Number(count.n) };
    },

    /** The ids a search keeps, of every user or of a channel's members, with a status or without one, of a role. */
    async ids(
      search: string | undefined,
      channelId?: number,
      statusId?: number | null,
      role?: Role,
    ): Promise<number[]> {
      const rows = await withRole(
        withStatus(searched(db.selectFrom('users').select('users.id'), search), statusId),
        role,
      )
        .$if(channelId !== undefined, (q) =>
          q.where((eb) =>
            eb.exists(
              eb
                .selectFrom('channel_members')
                .select('channel_members.user_id')
                .whereRef('channel_members.user_id', '=', 'users.id')
                .where('channel_members.channel_id', '=', channelId as number),
            ),
          ),
        )
        .orderBy('users.id')
        .execute();
      return rows.map((row) => row.id);
    },
  };
}

export type UserPaging = ReturnType<typeof userPaging>;
