/** The number of writes to the tables the whole lists read (migration 0007, kept by triggers). */
import type { Db } from './schema.ts';

export async function listVersion(db: Db): Promise<number> {
  const row = await db.selectFrom('list_version').select('n').where('id', '=', 1).executeTakeFirst();
  return Number(row?.n ?? 0);
}
