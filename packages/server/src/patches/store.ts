/** Patches: channels whose voice the media server joins (issue 27). A channel is in one patch at a time. */
import type { Patch } from '@talkgroup/protocol';
import type { Db } from '../db/schema.ts';

export interface ActivePatch {
  patchId: number;
  channelIds: number[];
}

export function patchStore(db: Db) {
  /** These patches with their channels (by name), newest first. */
  async function withChannels(
    rows: Array<{ id: number; created_by: number | null; created_by_name: string; created_at: string }>,
  ) {
    if (rows.length === 0) return [];
    const members = await db
      .selectFrom('channel_patch_members')
      .innerJoin('channels', 'channels.id', 'channel_patch_members.channel_id')
      .select(['channel_patch_members.patch_id', 'channels.id', 'channels.name'])
      .where(
        'channel_patch_members.patch_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('channels.name')
      .execute();
    return rows.map(
      (row): Patch => ({
        patchId: row.id,
        channels: members.filter((m) => m.patch_id === row.id).map((m) => ({ id: m.id, name: m.name })),
        createdAt: row.created_at,
        createdBy: { id: row.created_by, display_name: row.created_by_name },
      }),
    );
  }

  return {
    /** The patch each of these channels is in, if any. */
    async patchedAmong(channelIds: number[]): Promise<Map<number, number>> {
      if (channelIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('channel_patch_members')
        .select(['channel_id', 'patch_id'])
        .where('channel_id', 'in', channelIds)
        .execute();
      return new Map(rows.map((row) => [row.channel_id, row.patch_id]));
    },

    /** Writes a patch; a channel already patched meanwhile makes it fail (a unique violation). */
    async create(channelIds: number[], by: { userId: number; name: string }, at = new Date()): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const { id } = await trx
          .insertInto('channel_patches')
          .values({ created_by: by.userId, created_by_name: by.name, created_at: at.toISOString() })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('channel_patch_members')
          .values(channelIds.map((channelId) => ({ patch_id: id, channel_id: channelId })))
          .execute();
        return id;
      });
    },

    async byId(patchId: number): Promise<Patch | undefined> {
      const row = await db.selectFrom('channel_patches').selectAll().where('id', '=', patchId).executeTakeFirst();
      return row ? (await withChannels([row]))[0] : undefined;
    },

    async remove(patchId: number): Promise<boolean> {
      const result = await db.deleteFrom('channel_patches').where('id', '=', patchId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** The patches that join one of these channels (undefined: every patch), newest first. */
    async list(channelIds?: number[]): Promise<Patch[]> {
      if (channelIds?.length === 0) return [];
      const rows = await db
        .selectFrom('channel_patches')
        .selectAll()
        .$if(channelIds !== undefined, (q) =>
          q.where((eb) =>
            eb.exists(
              eb
                .selectFrom('channel_patch_members')
                .select('channel_patch_members.patch_id')
                .whereRef('channel_patch_members.patch_id', '=', 'channel_patches.id')
                .where('channel_patch_members.channel_id', 'in', channelIds as number[]),
            ),
          ),
        )
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return withChannels(rows);
    },

    /**
     * Every patch with its channels' ids: what a media server must join again after it restarted (the Janus
     * plane reads it to patch its rooms anew).
     */
    async active(): Promise<ActivePatch[]> {
      const rows = await db
        .selectFrom('channel_patch_members')
        .select(['patch_id', 'channel_id'])
        .orderBy('patch_id')
        .execute();
      const byPatch = new Map<number, number[]>();
      for (const row of rows) byPatch.set(row.patch_id, [...(byPatch.get(row.patch_id) ?? []), row.channel_id]);
      return [...byPatch].map(([patchId, channelIds]) => ({ patchId, channelIds }));
    },

    /** Patches left with fewer than two channels (their other channels were deleted). */
    async shrunk(): Promise<number[]> {
      const all = await db.selectFrom('channel_patches').select('id').execute();
      const counts = await db
        .selectFrom('channel_patch_members')
        .select(['patch_id', (eb) => eb.fn.countAll<number | string>().as('n')])
        .groupBy('patch_id')
        .execute();
      const countOf = new Map(counts.map((c) => [c.patch_id, Number(c.n)]));
      return all.map((row) => row.id).filter((id) => (countOf.get(id) ?? 0) < 2);
    },
  };
}

export type PatchStore = ReturnType<typeof patchStore>;
