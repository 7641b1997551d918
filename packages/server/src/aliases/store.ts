/**
 * Functional aliases (issue 59 item 5): the aliases and who holds them. A take counts the holders under a lock of
 * the alias's row (PostgreSQL: `for update`; SQLite has one writer), so that two takes at once never make more
 * holders than the alias allows, on any instance.
 */
import type { Alias, AliasHolder } from '@talkgroup/protocol';
import type { Dialect } from '../db/dialect.ts';
import type { Db } from '../db/schema.ts';

/** The roles stored for an alias (a JSON array; anything else reads as none: nobody takes it by itself). */
function takeRolesOf(text: string): string[] {
  try {
    const roles: unknown = JSON.parse(text);
    return Array.isArray(roles) ? roles.filter((role): role is string => typeof role === 'string') : [];
  } catch {
    return [];
  }
}

const nameOf = (row: { display_name: string; first_name: string; last_name: string; identifier: string }) =>
  row.display_name || `${row.first_name} ${row.last_name}`.trim() || row.identifier;

/** What a take did: taken (or already held), the alias full, or no such alias. */
export type TakeResult = 'taken' | 'held' | 'full' | 'unknown';

export function aliasStore(db: Db, dialect: Dialect) {
  async function holdersOf(aliasIds: number[]): Promise<Map<number, AliasHolder[]>> {
    const byAlias = new Map<number, AliasHolder[]>();
    if (aliasIds.length === 0) return byAlias;
    const rows = await db
      .selectFrom('alias_holders')
      .innerJoin('users', 'users.id', 'alias_holders.user_id')
      .select([
        'alias_holders.alias_id',
        'alias_holders.user_id',
        'alias_holders.since',
        'users.display_name',
        'users.first_name',
        'users.last_name',
        'users.identifier',
      ])
      .where('alias_holders.alias_id', 'in', aliasIds)
      .orderBy('alias_holders.since')
      .orderBy('alias_holders.user_id')
      .execute();
    for (const row of rows) {
      const list = byAlias.get(row.alias_id) ?? [];
      list.push({ userId: row.user_id, name: nameOf(row), since: new Date(row.since).toISOString() });
      byAlias.set(row.alias_id, list);
    }
    return byAlias;
  }

  return {
    async list(): Promise<Alias[]> {
      const rows = await db.selectFrom('aliases').selectAll().orderBy('name').execute();
      const holders = await holdersOf(rows.map((row) => row.id));
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        maxHolders: row.max_holders,
        takeRoles: takeRolesOf(row.take_roles),
        holders: holders.get(row.id) ?? [],
      }));
    },

    async byId(aliasId: number): Promise<Alias | undefined> {
      const row = await db.selectFrom('aliases').selectAll().where('id', '=', aliasId).executeTakeFirst();
      if (!row) return undefined;
      const holders = await holdersOf([row.id]);
      return {
        id: row.id,
        name: row.name,
        maxHolders: row.max_holders,
        takeRoles: takeRolesOf(row.take_roles),
        holders: holders.get(row.id) ?? [],
      };
    },

    /** Whether another alias has this name, in any case. */
    async nameTaken(name: string, exceptId?: number): Promise<boolean> {
      const rows = await db.selectFrom('aliases').select(['id', 'name']).execute();
      const wanted = name.toLocaleLowerCase();
      return rows.some((row) => row.id !== exceptId && row.name.toLocaleLowerCase() === wanted);
    },

    /** The new alias's id (a unique violation when its name is taken meanwhile). */
    async create(name: string, maxHolders: number, takeRoles: readonly string[]): Promise<number> {
      const row = await db
        .insertInto('aliases')
        .values({ name, max_holders: maxHolders, take_roles: JSON.stringify(takeRoles) })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** Changes what is given (nothing given: nothing written). */
    async update(
      aliasId: number,
      change: { name?: string; maxHolders?: number; takeRoles?: readonly string[] },
    ): Promise<void> {
      const values = {
        ...(change.name !== undefined ? { name: change.name } : {}),
        ...(change.maxHolders !== undefined ? { max_holders: change.maxHolders } : {}),
        ...(change.takeRoles !== undefined ? { take_roles: JSON.stringify(change.takeRoles) } : {}),
      };
      if (Object.keys(values).length === 0) return;
      await db.updateTable('aliases').set(values).where('id', '=', aliasId).execute();
    },

    /** Whether it was there. */
    async remove(aliasId: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom('alias_holders').where('alias_id', '=', aliasId).execute();
        const result = await trx.deleteFrom('aliases').where('id', '=', aliasId).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      });
    },

    /** Gives it to this user if it has room: counted under the alias row's lock. */
    async take(aliasId: number, userId: number, at = new Date()): Promise<TakeResult> {
      return db.transaction().execute(async (trx) => {
        const alias = await trx
          .selectFrom('aliases')
          .select('max_holders')
          .where('id', '=', aliasId)
          .$if(dialect === 'postgres', (query) => query.forUpdate())
          .executeTakeFirst();
        if (!alias) return 'unknown';
        const holders = await trx
          .selectFrom('alias_holders')
          .select('user_id')
          .where('alias_id', '=', aliasId)
          .execute();
        if (holders.some((row) => row.user_id === userId)) return 'held';
        if (holders.length >= alias.max_holders) return 'full';
        await trx
          .insertInto('alias_holders')
          .values({ alias_id: aliasId, user_id: userId, since: at.toISOString() })
          .execute();
        return 'taken';
      });
    },

    /** Whether this user held it. */
    async release(aliasId: number, userId: number): Promise<boolean> {
      const result = await db
        .deleteFrom('alias_holders')
        .where('alias_id', '=', aliasId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Each holder's aliases' names, joined ("Chef de quart, Secouriste"), for every user who holds one. */
    async labels(): Promise<Map<number, string>> {
      const rows = await db
        .selectFrom('alias_holders')
        .innerJoin('aliases', 'aliases.id', 'alias_holders.alias_id')
        .select(['alias_holders.user_id', 'aliases.name'])
        .orderBy('aliases.name')
        .execute();
      const labels = new Map<number, string>();
      for (const row of rows) {
        const was = labels.get(row.user_id);
        labels.set(row.user_id, was ? `${was}, ${row.name}` : row.name);
      }
      return labels;
    },
  };
}

export type AliasStore = ReturnType<typeof aliasStore>;
