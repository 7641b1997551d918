/** Devices and material types (spec section 7's legacy calls): read-only tables that the console lists. */
import type { Device, MaterialType } from '@talkgroup/protocol';
import type { Db } from '../db/schema.ts';

/** 00-1a-2b-3c-4d-5e, 001A2B3C4D5E and 00:1A:2B:3C:4D:5E are the same device. */
export function normaliseMac(mac: string): string {
  const hex = mac.replace(/[^0-9A-Fa-f]/g, '').toUpperCase();
  return hex.match(/../g)?.join(':') ?? hex;
}

export function deviceStore(db: Db) {
  return {
    async byMacAddress(macAddress: string): Promise<Device | undefined> {
      const mac = normaliseMac(macAddress);
      const row = await db
        .selectFrom('devices')
        .selectAll()
        .where((eb) => eb(eb.fn('upper', [eb.fn('replace', ['mac_address', eb.val('-'), eb.val(':')])]), '=', mac))
        .executeTakeFirst();
      return (
        row && {
          id: row.id,
          display_name: row.display_name,
          mac_address: row.mac_address,
          type: row.type,
          manufacturer: row.manufacturer,
          product_ref: row.product_ref,
          createdAt: row.created_at,
        }
      );
    },

    async materialTypes(): Promise<MaterialType[]> {
      const rows = await db.selectFrom('material_types').selectAll().orderBy('name').execute();
      return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at }));
    },
  };
}

export type DeviceStore = ReturnType<typeof deviceStore>;
