/**
 * Legacy calls of spec section 7 that the console still makes: devices and material types (real tables),
 * call events (read from the recorded talk bursts), and friends and invitations, which this product does not
 * have and answers with 410 Gone. Same conventions as every other call: token required, administrators only.
 */
import {
  GET_ALL_MATERIAL_TYPES_PATH,
  GetAllMaterialTypes,
  type GetAllMaterialTypesResponse,
  GetDeviceByMacAddress,
  GetInvitationLists,
  GetMyFriendLists,
  GetSentInvitation,
  GetUserCallEvents,
  GetUserEndCallEventsByCallId,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import type { TalkBurstStore } from '../floor/talk-bursts.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { authenticate, defineRoutes, routeOptions } from '../http/route.ts';
import type { DeviceStore } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface LegacyRoutesServices {
  devices: DeviceStore;
  sessions: SessionStore;
  talkBursts: TalkBurstStore;
}

/** How many call events one answer carries at most, latest first. */
const CALL_EVENTS_MAX = 500;

export function legacyRoutes(app: FastifyInstance, services: LegacyRoutesServices): void {
  const { talkBursts, devices } = services;
  const route = defineRoutes(app, services.sessions);
  const gone = async (): Promise<never> => {
    throw new HttpError(410, 'legacy_gone');
  };

  route(GetSentInvitation, gone);
  route(GetMyFriendLists, gone);
  route(GetInvitationLists, gone);

  route(GetUserCallEvents, async ({ body }) => ({
    success: true,
    res: await talkBursts.ofUser(body.userId, CALL_EVENTS_MAX),
  }));

  /** The end of one call (talk burst): empty while it is still going on. */
  route(GetUserEndCallEventsByCallId, async ({ body }) => {
    const burst = await talkBursts.byId(body.callId);
    if (!burst) throw notFound('call_not_found');
    return { success: true, res: burst.endedAt === null ? [] : [burst] };
  });

  route(GetDeviceByMacAddress, async ({ body }) => {
    const device = await devices.byMacAddress(body.macAddress);
    if (!device) throw notFound('device_not_found');
    return { success: true, res: device };
  });

  app.get(
    GET_ALL_MATERIAL_TYPES_PATH,
    routeOptions(GetAllMaterialTypes),
    async (req): Promise<GetAllMaterialTypesResponse> => {
      await authenticate(services.sessions, req, GetAllMaterialTypes.access);
      return { success: true, res: await devices.materialTypes() };
    },
  );
}
