import { z } from 'zod';
import { call, Flag, Id, OkSchema, requiredText } from '../call.ts';

// Presence and voice
export const ConnectAdminToChannel = call(OkSchema)(
  '/user/api/connectAdminToChannel/',
  'self',
  z.object({ userId: Id, channelId: Id, socketId: z.string().min(1).max(100) }),
);
export const UpdateUserMicState = call(OkSchema)(
  '/user/api/updateUserMicState/',
  'self',
  z.object({ userId: Id, micState: Flag, channelName: requiredText(200) }),
);
