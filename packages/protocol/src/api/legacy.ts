import { z } from 'zod';
import { call, Empty, ErrorResponseSchema, Id, ok, type ResponseOf } from '../call.ts';
import { CallEventSchema, DeviceSchema, MaterialTypeSchema } from '../entities.ts';

// Legacy calls (spec section 7, legacy; see docs/api.md)
/** Friends and invitations are not part of this product: these answer 410 Gone. */
export const GetSentInvitation = call(ErrorResponseSchema)('/user/api/getSentInvitation', 'gone', Empty);
export const GetMyFriendLists = call(ErrorResponseSchema)('/user/api/getmyfriendlists', 'gone', Empty);
export const GetInvitationLists = call(ErrorResponseSchema)('/user/api/getinvitationlists', 'gone', Empty);
export const GetUserCallEvents = call(ok({ res: z.array(CallEventSchema) }))(
  '/user/api/getUserCallEvents',
  'legacy.read',
  z.object({ userId: Id }),
);
export const GetUserEndCallEventsByCallId = call(ok({ res: z.array(CallEventSchema) }))(
  '/user/api/getUserEndCallEventsByCallId',
  'legacy.read',
  z.object({ callId: Id }),
);
export const MAC_ADDRESS = /^[0-9A-Fa-f]{2}([:-]?)[0-9A-Fa-f]{2}(\1[0-9A-Fa-f]{2}){4}$/;
export const GetDeviceByMacAddress = call(ok({ res: DeviceSchema }))(
  '/device/getDeviceByMacAddress',
  'legacy.read',
  z.object({ macAddress: z.string().trim().regex(MAC_ADDRESS, 'must be a MAC address like 00:1A:2B:3C:4D:5E') }),
);
/** GET, no body. */
export const GET_ALL_MATERIAL_TYPES_PATH = '/device/getAllMaterialTypes/';
export const GetAllMaterialTypes = call(ok({ res: z.array(MaterialTypeSchema) }))(
  GET_ALL_MATERIAL_TYPES_PATH,
  'legacy.read',
  Empty,
  {
    method: 'GET',
  },
);
export type GetAllMaterialTypesResponse = ResponseOf<typeof GetAllMaterialTypes>;
