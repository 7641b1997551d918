/**
 * Legacy calls of spec section 7 that the console still makes: devices and material types (real tables),
 * call events (read from the recorded talk bursts), and friends and invitations, which this product does not
 * have and answers with 410 Gone. Same conventions as every other call: token required, administrators only.
 */
import {
  type CallEvent,
  type Device,
  GET_ALL_MATERIAL_TYPES_PATH,
  type GetAllMaterialTypesResponse,
  GetDeviceByMacAddress,
  GetInvitationLists,
  GetMyFriendLists,
  GetSentInvitation,
  GetUserCallEvents,
  GetUserEndCallEventsByCallId,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import type { TalkBurstsTable } from '../db/schema.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { authenticate, defineRoutes } from '../http/route.ts';
import type { Services } from '../services.ts';

export const GONE =
  'Friends and invitations are not part of Talkgroup: this call is no longer served. Use channels instead.';
/** How many call events one answer carries at most, latest first. */
const CALL_EVENTS_MAX = 500;

/** 00-1a-2b-3c-4d-5e, 001A2B3C4D5E and 00:1A:2B:3C:4D:5E are the same device. */
export function normaliseMac(mac: string): string {
  const hex = mac.replace(/[^0-9A-Fa-f]/g, '').toUpperCase();
  return hex.match(/../g)?.join(':') ?? hex;
}

function toCallEvent(row: Selectable<TalkBurstsTable>): CallEvent {
  return {
    id: row.id,
    userId: row.user_id,
    channelId: row.channel_id,
    channelName: row.channel_name,
    startedAt: row.started_at,
    endedAt: row.ended_at,
  };
}

export function legacyRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;
  const route = defineRoutes(app, services.sessions);
  const gone = async (): Promise<never> => {
    throw new HttpError(410, GONE);
  };

  route(GetSentInvitation, 'signedIn', gone);
  route(GetMyFriendLists, 'signedIn', gone);
  route(GetInvitationLists, 'signedIn', gone);

  route(GetUserCallEvents, 'admin', async ({ body }) => {
    const rows = await db
      .selectFrom('talk_bursts')
      .selectAll()
      .where('user_id', '=', body.userId)
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(CALL_EVENTS_MAX)
      .execute();
    return { success: true, res: rows.map(toCallEvent) };
  });

  /** The end of one call (talk burst): empty while it is still going on. */
  route(GetUserEndCallEventsByCallId, 'admin', async ({ body }) => {
    const row = await db.selectFrom('talk_bursts').selectAll().where('id', '=', body.callId).executeTakeFirst();
    if (!row) throw notFound('Call');
    return { success: true, res: row.ended_at === null ? [] : [toCallEvent(row)] };
  });

  route(GetDeviceByMacAddress, 'admin', async ({ body }) => {
    const mac = normaliseMac(body.macAddress);
    const row = await db
      .selectFrom('devices')
      .selectAll()
      .where((eb) => eb(eb.fn('upper', [eb.fn('replace', ['mac_address', eb.val('-'), eb.val(':')])]), '=', mac))
      .executeTakeFirst();
    if (!row) throw notFound('Device');
    const device: Device = {
      id: row.id,
      display_name: row.display_name,
      mac_address: row.mac_address,
      type: row.type,
      manufacturer: row.manufacturer,
      product_ref: row.product_ref,
      createdAt: row.created_at,
    };
    return { success: true, res: device };
  });

  app.get(GET_ALL_MATERIAL_TYPES_PATH, async (req): Promise<GetAllMaterialTypesResponse> => {
    await authenticate(services.sessions, req, 'admin');
    const rows = await db.selectFrom('material_types').selectAll().orderBy('name').execute();
    return { success: true, res: rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at })) };
  });
}
