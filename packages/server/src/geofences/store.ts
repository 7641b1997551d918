/** Geofences and, per fence and member, the side of its edge last decided (tables of migration 0012). */
import type { Geofence, GeofenceAlertOn, GeofenceShape } from '@talkgroup/protocol';
import type { Selectable } from 'kysely';
import type { Db, GeofencesTable } from '../db/schema.ts';

type FenceRow = Selectable<GeofencesTable> & { channel_name: string | null };

/** A fence as the crossing check holds it: its shape parsed once. */
export interface WatchedFence {
  id: number;
  name: string;
  channelId: number | null;
  shape: GeofenceShape;
  alertOn: GeofenceAlertOn;
  activeUntil: string | null;
}

export interface FenceInput {
  name: string;
  channelId: number | null;
  shape: GeofenceShape;
  alertOn: GeofenceAlertOn;
  activeUntil: Date | null;
}

export function isActive(fence: { activeUntil: string | null }, now = Date.now()): boolean {
  return fence.activeUntil === null || Date.parse(fence.activeUntil) > now;
}

function toGeofence(row: FenceRow): Geofence {
  const activeUntil = row.active_until;
  return {
    id: row.id,
    name: row.name,
    channelId: row.channel_id,
    channelName: row.channel_name,
    shape: JSON.parse(row.shape) as GeofenceShape,
    alertOn: row.alert_on,
    activeUntil,
    active: isActive({ activeUntil }),
    createdAt: row.created_at,
    createdBy: { id: row.created_by, name: row.created_by_name },
  };
}

export function geofenceStore(db: Db) {
  const selectFences = () =>
    db
      .selectFrom('geofences')
      .leftJoin('channels', 'channels.id', 'geofences.channel_id')
      .selectAll('geofences')
      .select('channels.name as channel_name');

  return {
    async byId(id: number): Promise<Geofence | undefined> {
      const row = await selectFences().where('geofences.id', '=', id).executeTakeFirst();
      return row ? toGeofence(row) : undefined;
    },

    /**
     * Fences by channel, oldest first: `channels` undefined lists every fence; otherwise those of these
     * channels, and the fences without channel too when `withoutChannel`.
     */
    async list(channels: number[] | undefined, withoutChannel: boolean): Promise<Geofence[]> {
      const rows = await selectFences()
        .$if(channels !== undefined, (q) =>
          q.where((eb) => {
            const own =
              (channels as number[]).length > 0 ? [eb('geofences.channel_id', 'in', channels as number[])] : [];
            return eb.or(withoutChannel ? [...own, eb('geofences.channel_id', 'is', null)] : own);
          }),
        )
        .orderBy('geofences.id')
        .execute();
      return rows.map(toGeofence);
    },

    /** Every fence, for the crossing check's cache. */
    async watched(): Promise<WatchedFence[]> {
      const rows = await db
        .selectFrom('geofences')
        .select(['id', 'name', 'channel_id', 'shape', 'alert_on', 'active_until'])
        .execute();
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        channelId: row.channel_id,
        shape: JSON.parse(row.shape) as GeofenceShape,
        alertOn: row.alert_on,
        activeUntil: row.active_until,
      }));
    },

    async create(input: FenceInput, by: { id: number; name: string }): Promise<number> {
      const now = new Date().toISOString();
      const row = await db
        .insertInto('geofences')
        .values({
          name: input.name,
          channel_id: input.channelId,
          shape: JSON.stringify(input.shape),
          alert_on: input.alertOn,
          active_until: input.activeUntil?.toISOString() ?? null,
          created_at: now,
          updated_at: now,
          created_by: by.id,
          created_by_name: by.name,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** Changes the fields given; a new shape forgets every member's side of the old edge. */
    async update(id: number, changes: Partial<FenceInput>): Promise<void> {
      await db
        .updateTable('geofences')
        .set({
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.channelId !== undefined ? { channel_id: changes.channelId } : {}),
          ...(changes.shape !== undefined ? { shape: JSON.stringify(changes.shape) } : {}),
          ...(changes.alertOn !== undefined ? { alert_on: changes.alertOn } : {}),
          ...(changes.activeUntil !== undefined ? { active_until: changes.activeUntil?.toISOString() ?? null } : {}),
          updated_at: new Date().toISOString(),
        })
        .where('id', '=', id)
        .execute();
      if (changes.shape !== undefined) await db.deleteFrom('geofence_states').where('geofence_id', '=', id).execute();
    },

    async remove(id: number): Promise<boolean> {
      // Its members' sides go with it (on delete cascade).
      const result = await db.deleteFrom('geofences').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** The member's decided side of each of these fences: true inside, false outside (none yet: absent). */
    async sides(userId: number, fenceIds: number[]): Promise<Map<number, boolean>> {
      if (fenceIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('geofence_states')
        .select(['geofence_id', 'inside'])
        .where('user_id', '=', userId)
        .where('geofence_id', 'in', fenceIds)
        .execute();
      return new Map(rows.map((row) => [row.geofence_id, row.inside === 1]));
    },

    /** Records a first side; false when another report recorded one meanwhile (it decides instead). */
    async recordFirstSide(userId: number, fenceId: number, inside: boolean, at: string): Promise<boolean> {
      const result = await db
        .insertInto('geofence_states')
        .values({ user_id: userId, geofence_id: fenceId, inside: inside ? 1 : 0, changed_at: at })
        .onConflict((oc) => oc.columns(['user_id', 'geofence_id']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /**
     * Moves the side from `was` to its opposite, in one statement: true only for the report that made the
     * change (two instances handling two reports at once cannot both alert).
     */
    async flipSide(userId: number, fenceId: number, was: boolean, at: string): Promise<boolean> {
      const result = await db
        .updateTable('geofence_states')
        .set({ inside: was ? 0 : 1, changed_at: at })
        .where('user_id', '=', userId)
        .where('geofence_id', '=', fenceId)
        .where('inside', '=', was ? 1 : 0)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type GeofenceStore = ReturnType<typeof geofenceStore>;
