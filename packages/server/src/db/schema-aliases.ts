/** Functional aliases (issue 59 item 5, migration 0039). */
import type { ColumnType, Generated } from 'kysely';

export interface AliasesTable {
  id: Generated<number>;
  name: string;
  max_holders: Generated<number>;
  /** The roles that may take it by themselves, a JSON array of role names (migration 0046, issue 69). */
  take_roles: ColumnType<string, string | undefined, string>;
}

/** Who holds an alias now: one row per alias and user. */
export interface AliasHoldersTable {
  alias_id: number;
  user_id: number;
  since: string;
}
