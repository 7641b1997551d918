/**
 * The deployment's VAPID key pair (RFC 8292): VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY when given, else the one
 * kept in push_keys, made by the first instance that starts without one (two starting at once: the first
 * insert wins, both read it back). base64url: the 65-byte uncompressed P-256 point and the 32-byte scalar.
 */
import { generateKeyPairSync } from 'node:crypto';
import type { Config } from '../config/config.ts';
import type { Db } from '../db/schema.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export function newVapidKeys(): VapidKeys {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = privateKey.export({ format: 'jwk' });
  if (!jwk.x || !jwk.y || !jwk.d) throw new Error('the P-256 key has no coordinates');
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')]);
  return { publicKey: point.toString('base64url'), privateKey: jwk.d };
}

export async function loadVapidKeys(db: Db, config: Pick<Config, 'vapidPublicKey' | 'vapidPrivateKey'>) {
  if (config.vapidPublicKey && config.vapidPrivateKey)
    return { publicKey: config.vapidPublicKey, privateKey: config.vapidPrivateKey };
  const read = () =>
    db.selectFrom('push_keys').select(['public_key', 'private_key']).where('id', '=', 1).executeTakeFirst();
  let row = await read();
  if (!row) {
    const made = newVapidKeys();
    await db
      .insertInto('push_keys')
      .values({ id: 1, public_key: made.publicKey, private_key: made.privateKey, created_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    row = await read();
  }
  if (!row) throw new Error('the VAPID keys could not be kept in the database');
  return { publicKey: row.public_key, privateKey: row.private_key };
}
