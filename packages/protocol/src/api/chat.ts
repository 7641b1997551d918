import { z } from 'zod';
import { call, Id, OkSchema, ok, type ResponseOf } from '../call.ts';
import { MessageSchema } from '../entities.ts';
import { IMAGE_MAX_LABEL } from '../rules.ts';

// Chat
export const GetChannelMessageListForAdmin = call(ok({ discussion: z.array(MessageSchema), hasMore: z.boolean() }))(
  '/user/api/getchannelmessagelistForAdmin',
  'channel.read',
  z.object({
    channelId: Id,
    /** Paging for long histories: messages with an id below this one. */
    beforeId: Id.optional(),
    /** Catching up after a reconnection: the messages after this one, oldest first; hasMore: newer remain. */
    afterId: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(500).optional(),
  }),
);
export const SendMessageToChannel = call(ok({ res: MessageSchema }))(
  '/user/api/sendMessageToChannel',
  'channel.chat',
  z.object({ userId: Id.optional(), channelId: Id, message: z.string().trim().min(1, 'must not be blank').max(4000) }),
);
export const DeleteMessageById = call(OkSchema)('/user/api/deleteMessageById', 'author', z.object({ msgId: Id }));
/** Multipart form: image (the file), userId, channelId, textMsg. */
export const UPLOAD_FILE_PATH = '/user/api/uploadFile';
export const UploadFileFields = z.object({
  userId: Id.optional(),
  channelId: Id,
  textMsg: z.string().trim().max(4000).default(''),
});
/** The form's text fields and its file: the server reads the parts itself, then checks the fields above. */
const UploadFileForm = UploadFileFields.extend({
  image: z.file().describe(`jpeg, png, bmp, gif or webp (recognised by its bytes), at most ${IMAGE_MAX_LABEL}`),
});
export const UploadFile = call(ok({ res: MessageSchema }))(UPLOAD_FILE_PATH, 'channel.chat', UploadFileForm, {
  encoding: 'multipart/form-data',
});
export type UploadFileResponse = ResponseOf<typeof UploadFile>;
/** GET /files/<name>?uid=&exp=&sig=: a chat image; the path comes signed and expiring in a message (file.path). */
export const FileLink = {
  params: z.object({ name: z.string() }),
  querystring: z.object({
    uid: z.string().describe('the reader the link was signed for'),
    exp: z.string().describe('expiry, unix seconds'),
    sig: z.string().describe('HMAC-SHA256 of name, uid and exp'),
  }),
};
