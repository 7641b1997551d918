/**
 * SIP gateways (issue 51, migration 0033): the gateways themselves (gateways), the channels each may enter
 * (gateway_channels) and their calls now (gateway_calls: call-rows.ts), for the administrators' calls (routes.ts)
 * and for the SIP server, which reads a gateway by its login to check a call and writes the calls it holds.
 *
 * Each gateway talks as an account of its own (users.gateway = 1), made with it in one transaction: its takes,
 * talk bursts and activities name it like a member's. That account cannot sign in (no password verifies its
 * hash, and its identifier is no login anyone types) and is left out of every list of people. Deleting the
 * gateway keeps the account, disabled, so that its history keeps its name.
 */
import { type Gateway, type GatewayFloorMode, type GatewayPriority, gatewayCallLimit } from '@talkgroup/protocol';
import type { Selectable } from 'kysely';
import { inSlices } from '../db/batch.ts';
import type { Db, GatewaysTable } from '../db/schema.ts';
import { searchTextOf } from '../db/search-text.ts';
import { gatewayCallRows } from './call-rows.ts';

export type { NewGatewayCall } from './call-rows.ts';

/** What an administrator sets of a gateway (createGateway, updateGateway). */
export interface GatewayFields {
  name: string;
  login: string;
  channelIds: number[];
  allowedAddresses: string[];
  floorMode: GatewayFloorMode;
  attackMs: number;
  hangMs: number;
  priority: GatewayPriority;
  quietBetween: boolean;
  /** The calls it may hold at once; null (or left out on creation): one per channel it may enter (maxCalls). */
  simultaneousCalls?: number | null;
}

/** The digest hashes of a secret for one realm (secrets.ts): all that is kept of it. */
export interface GatewayCredentials {
  realm: string;
  ha1Md5: string;
  ha1Sha256: string;
}

/** What the SIP server needs to check a gateway's call and to run it. */
export interface SipGateway {
  id: number;
  name: string;
  login: string;
  realm: string;
  ha1Md5: string;
  ha1Sha256: string;
  userId: number;
  floorMode: GatewayFloorMode;
  attackMs: number;
  hangMs: number;
  priority: GatewayPriority;
  quietBetween: boolean;
  allowedAddresses: string[];
  channelIds: number[];
  /** Null: the default, one call per channel it may enter (maxCalls). */
  simultaneousCalls: number | null;
}

/**
 * How many calls the gateway may hold at once (issue 57): what the administrator set, or one per channel it may
 * enter (at least one). The SIP server answers a call past it 486 Busy Here, so that a gateway, or whoever has
 * its credentials, cannot use up the relay's ports.
 */
export function maxCalls(gateway: Pick<SipGateway, 'simultaneousCalls' | 'channelIds'>): number {
  return gatewayCallLimit(gateway);
}

/**
 * A password hash no password verifies (auth/passwords.ts accepts only `scrypt$...`): a gateway's account is
 * refused at sign-in with the usual 401, whatever is typed.
 */
export const GATEWAY_ACCOUNT_PASSWORD = '!gateway: no sign-in';

/**
 * The account's identifier: `~` is in no email address nor in a gateway login, so it never collides with a
 * person's login, and a sign-in (which lowercases what is typed) cannot even name a login with capitals.
 */
export const gatewayAccountIdentifier = (login: string) => `gateway~${login}`;

type GatewayRow = Selectable<GatewaysTable>;

export function gatewayStore(db: Db) {
  /** Each gateway's channels, by gateway id (every gateway's when `ids` is undefined). */
  async function channelsOf(ids?: number[]): Promise<Map<number, number[]>> {
    const rows =
      ids === undefined
        ? await db.selectFrom('gateway_channels').selectAll().orderBy('channel_id').execute()
        : await inSlices(ids, (slice) =>
            db
              .selectFrom('gateway_channels')
              .selectAll()
              .where('gateway_id', 'in', slice)
              .orderBy('channel_id')
              .execute(),
          );
    const byGateway = new Map<number, number[]>();
    for (const row of rows) {
      const list = byGateway.get(row.gateway_id);
      if (list) list.push(row.channel_id);
      else byGateway.set(row.gateway_id, [row.channel_id]);
    }
    return byGateway;
  }

  async function callCounts(): Promise<Map<number, number>> {
    const rows = await db
      .selectFrom('gateway_calls')
      .select((eb) => ['gateway_id', eb.fn.countAll<number | string>().as('n')])
      .groupBy('gateway_id')
      .execute();
    return new Map(rows.map((row) => [row.gateway_id, Number(row.n)]));
  }

  function toGateway(row: GatewayRow, channelIds: number[], calls: number): Gateway {
    return {
      id: row.id,
      name: row.name,
      login: row.login,
      channelIds,
      allowedAddresses: JSON.parse(row.allowed_addresses),
      floorMode: row.floor_mode as GatewayFloorMode,
      attackMs: row.attack_ms,
      hangMs: row.hang_ms,
      priority: row.priority as GatewayPriority,
      quietBetween: row.quiet_between === 1,
      simultaneousCalls: row.simultaneous_calls,
      createdAt: row.created_at,
      calls,
    };
  }

  function toSipGateway(row: GatewayRow, channelIds: number[]): SipGateway {
    return {
      id: row.id,
      name: row.name,
      login: row.login,
      realm: row.realm,
      ha1Md5: row.ha1_md5,
      ha1Sha256: row.ha1_sha256,
      userId: row.user_id,
      floorMode: row.floor_mode as GatewayFloorMode,
      attackMs: row.attack_ms,
      hangMs: row.hang_ms,
      priority: row.priority as GatewayPriority,
      quietBetween: row.quiet_between === 1,
      allowedAddresses: JSON.parse(row.allowed_addresses),
      channelIds,
      simultaneousCalls: row.simultaneous_calls,
    };
  }

  async function sipGatewayOf(row: GatewayRow | undefined): Promise<SipGateway | undefined> {
    if (!row) return undefined;
    return toSipGateway(row, (await channelsOf([row.id])).get(row.id) ?? []);
  }

  /** The settings columns of `fields` (those given). */
  function columnsOf(fields: Partial<GatewayFields>) {
    return {
      ...(fields.name !== undefined ? { name: fields.name } : {}),
      ...(fields.login !== undefined ? { login: fields.login } : {}),
      ...(fields.floorMode !== undefined ? { floor_mode: fields.floorMode } : {}),
      ...(fields.attackMs !== undefined ? { attack_ms: fields.attackMs } : {}),
      ...(fields.hangMs !== undefined ? { hang_ms: fields.hangMs } : {}),
      ...(fields.priority !== undefined ? { priority: fields.priority } : {}),
      ...(fields.quietBetween !== undefined ? { quiet_between: fields.quietBetween ? 1 : 0 } : {}),
      ...(fields.allowedAddresses !== undefined ? { allowed_addresses: JSON.stringify(fields.allowedAddresses) } : {}),
      ...(fields.simultaneousCalls !== undefined ? { simultaneous_calls: fields.simultaneousCalls } : {}),
    };
  }

  /** The account's names for a gateway name: what the voice history, the floor and the reports show. */
  function accountNames(name: string, login: string) {
    const names = {
      first_name: name,
      last_name: '',
      identifier: gatewayAccountIdentifier(login),
      pseudo: '',
      display_name: name,
    };
    return { ...names, search_text: searchTextOf(names) };
  }

  const store = {
    ...gatewayCallRows(db),

    /** The organisation's gateways by name, each with its calls now. */
    async list(): Promise<Gateway[]> {
      const rows = await db.selectFrom('gateways').selectAll().orderBy('name').orderBy('id').execute();
      const [channels, calls] = await Promise.all([channelsOf(), callCounts()]);
      return rows.map((row) => toGateway(row, channels.get(row.id) ?? [], calls.get(row.id) ?? 0));
    },

    async get(id: number): Promise<Gateway | undefined> {
      const row = await db.selectFrom('gateways').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      const calls = await db
        .selectFrom('gateway_calls')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('gateway_id', '=', id)
        .executeTakeFirstOrThrow();
      return toGateway(row, (await channelsOf([id])).get(id) ?? [], Number(calls.n));
    },

    /**
     * Whether another gateway (not `exceptId`) has this login, or an account has its identifier (a deleted
     * gateway's account gives its identifier up, so only a live one can).
     */
    async loginTaken(login: string, exceptId?: number): Promise<boolean> {
      const gateway = await db
        .selectFrom('gateways')
        .select('id')
        .where('login', '=', login)
        .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId as number))
        .executeTakeFirst();
      if (gateway) return true;
      const account = await db
        .selectFrom('users')
        .select('id')
        .where('identifier', '=', gatewayAccountIdentifier(login))
        .$if(exceptId !== undefined, (q) =>
          q.where('id', 'not in', (eb) =>
            eb
              .selectFrom('gateways')
              .select('user_id')
              .where('id', '=', exceptId as number),
          ),
        )
        .executeTakeFirst();
      return account !== undefined;
    },

    /** Those of `ids` that are no channel of the organisation (a private call's hidden channel is none). */
    async unknownChannels(ids: number[]): Promise<number[]> {
      const found = new Set(
        (
          await inSlices([...new Set(ids)], (slice) =>
            db.selectFrom('channels').select('id').where('id', 'in', slice).where('hidden', '=', 0).execute(),
          )
        ).map((row) => row.id),
      );
      return [...new Set(ids)].filter((id) => !found.has(id));
    },

    /** Adds the gateway and its account, in one transaction. */
    async create(fields: GatewayFields, credentials: GatewayCredentials, at = new Date()): Promise<Gateway> {
      const id = await db.transaction().execute(async (trx) => {
        const account = await trx
          .insertInto('users')
          .values({
            ...accountNames(fields.name, fields.login),
            phone_number: '',
            password_hash: GATEWAY_ACCOUNT_PASSWORD,
            map_right: 0,
            role: 'member',
            photo_url: null,
            created_at: at.toISOString(),
            gateway: 1,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const gateway = await trx
          .insertInto('gateways')
          .values({
            name: fields.name,
            login: fields.login,
            realm: credentials.realm,
            ha1_md5: credentials.ha1Md5,
            ha1_sha256: credentials.ha1Sha256,
            user_id: account.id,
            floor_mode: fields.floorMode,
            attack_ms: fields.attackMs,
            hang_ms: fields.hangMs,
            priority: fields.priority,
            quiet_between: fields.quietBetween ? 1 : 0,
            allowed_addresses: JSON.stringify(fields.allowedAddresses),
            simultaneous_calls: fields.simultaneousCalls ?? null,
            created_at: at.toISOString(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const channelIds = [...new Set(fields.channelIds)];
        if (channelIds.length > 0)
          await trx
            .insertInto('gateway_channels')
            .values(channelIds.map((channelId) => ({ gateway_id: gateway.id, channel_id: channelId })))
            .execute();
        return gateway.id;
      });
      return (await store.get(id)) as Gateway;
    },

    /**
     * Changes the fields given; a new name renames the account, a new login its identifier. `credentials`
     * replace the hashes (a new login voids them: they hash the login). Undefined when there is no such gateway.
     */
    async update(
      id: number,
      fields: Partial<GatewayFields>,
      credentials?: GatewayCredentials,
    ): Promise<Gateway | undefined> {
      const found = await db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('gateways').selectAll().where('id', '=', id).executeTakeFirst();
        if (!row) return false;
        const columns = {
          ...columnsOf(fields),
          ...(credentials
            ? { realm: credentials.realm, ha1_md5: credentials.ha1Md5, ha1_sha256: credentials.ha1Sha256 }
            : {}),
        };
        if (Object.keys(columns).length > 0)
          await trx.updateTable('gateways').set(columns).where('id', '=', id).execute();
        if (fields.name !== undefined || fields.login !== undefined)
          await trx
            .updateTable('users')
            .set(accountNames(fields.name ?? row.name, fields.login ?? row.login))
            .where('id', '=', row.user_id)
            .execute();
        if (fields.channelIds !== undefined) {
          await trx.deleteFrom('gateway_channels').where('gateway_id', '=', id).execute();
          const channelIds = [...new Set(fields.channelIds)];
          if (channelIds.length > 0)
            await trx
              .insertInto('gateway_channels')
              .values(channelIds.map((channelId) => ({ gateway_id: id, channel_id: channelId })))
              .execute();
        }
        return true;
      });
      return found ? store.get(id) : undefined;
    },

    /**
     * Deletes the gateway (its channels and call rows go with it) and disables its account, which gives its
     * identifier up (a new gateway may take the login) and keeps its name for the history.
     */
    async remove(id: number, at = new Date()): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .selectFrom('gateways')
          .select(['user_id', 'login'])
          .where('id', '=', id)
          .executeTakeFirst();
        if (!row) return false;
        await trx.deleteFrom('gateways').where('id', '=', id).execute();
        await trx
          .updateTable('users')
          .set({ disabled_at: at.toISOString(), identifier: `${gatewayAccountIdentifier(row.login)}~deleted~${id}` })
          .where('id', '=', row.user_id)
          .execute();
        return true;
      });
    },

    // The SIP server's side.

    async byLogin(login: string): Promise<SipGateway | undefined> {
      return sipGatewayOf(await db.selectFrom('gateways').selectAll().where('login', '=', login).executeTakeFirst());
    },

    async byId(id: number): Promise<SipGateway | undefined> {
      return sipGatewayOf(await db.selectFrom('gateways').selectAll().where('id', '=', id).executeTakeFirst());
    },
  };
  return store;
}

export type GatewayStore = ReturnType<typeof gatewayStore>;
