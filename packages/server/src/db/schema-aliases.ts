/** Functional aliases (issue 59 item 5, migration 0039). */
import type { Generated } from 'kysely';

export interface AliasesTable {
  id: Generated<number>;
  name: string;
  max_holders: Generated<number>;
}

/** Who holds an alias now: one row per alias and user. */
export interface AliasHoldersTable {
  alias_id: number;
  user_id: number;
  since: string;
}
