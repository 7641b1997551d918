/** Chat of a channel (spec section 7): the message list, sending text and images, deleting, serving images. */
import { readFile } from 'node:fs/promises';
import multipart from '@fastify/multipart';
import {
  DeleteMessageById,
  GetChannelMessageListForAdmin,
  IMAGE_MAX_BYTES,
  IMAGE_MAX_LABEL,
  type ImageMimeType,
  type Message,
  may,
  SendMessageToChannel,
  UPLOAD_FILE_PATH,
  UploadFile,
  UploadFileFields,
  type UploadFileResponse,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { CallLimiter } from '../auth/rate-limit.ts';
import type { SessionStore } from '../auth/sessions.ts';
import type { ChannelAccess } from '../channels/access.ts';
import type { ChannelStore } from '../channels/store.ts';
import type { EventBus } from '../events.ts';
import type { DiskReserve } from '../http/disk-reserve.ts';
import { badRequest, forbidden, HttpError, notFound } from '../http/errors.ts';
import { said } from '../http/messages.ts';
import { authenticate, defineRoutes, fileLinkOptions, parseBody, routeOptions } from '../http/route.ts';
import type { UserStore } from '../users/store.ts';
import { FILES_PREFIX, type FileStore, type FileUrls, sniffImage } from './files.ts';
import type { SendMessage } from './send.ts';
import type { MessageStore } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface MessageRoutesServices {
  access: ChannelAccess;
  channels: ChannelStore;
  events: EventBus;
  fileUrls: FileUrls;
  files: FileStore;
  messages: MessageStore;
  sendMessage: SendMessage;
  sessions: SessionStore;
  uploadLimit: CallLimiter;
  users: UserStore;
  /** No upload while DATA_DIR's disk is under DISK_RESERVE_MB (issue 69). */
  diskReserve: DiskReserve;
}

/** Spec section 5's upload message; the type is recognised from the bytes, never from the name. */
const FILE_NAME_MAX = 200;

/** The sender's name for the file, kept for display and download: no path, no control characters. */
export function displayFileName(raw: string | undefined, mime: ImageMimeType): string {
  const extension = IMAGE_EXTENSIONS[mime];
  const base = (raw ?? '').replaceAll('\\', '/').split('/').pop() ?? '';
  // No control, bidirectional or invisible formatting character (a name must read as it is), no quote.
  const clean = base
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029"]/gu, '')
    .trim()
    .replace(/^\.+/, '');
  // The extension is the detected type's: "invoice.pdf" that is a PNG shows as "invoice.pdf.png".
  const stem = clean.replace(/\.(jpe?g|png|gif|bmp|webp)$/i, '').slice(0, FILE_NAME_MAX - extension.length - 1);
  return `${stem || 'image'}.${extension}`;
}

const IMAGE_EXTENSIONS: Record<ImageMimeType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/bmp': 'bmp',
  'image/webp': 'webp',
};

/** RFC 6266: an ASCII fallback plus the UTF-8 name. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `inline; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

function multipartError(error: unknown): unknown {
  const code = (error as { code?: string })?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new HttpError(413, 'image_too_large', { max: IMAGE_MAX_LABEL });
  if (code === 'FST_FILES_LIMIT') return badRequest('image_single_file');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return badRequest('multipart_required');
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return badRequest('multipart_fields');
  if (code === 'FST_PROTO_VIOLATION') return badRequest('field_not_allowed');
  return error;
}

export function messageRoutes(app: FastifyInstance, services: MessageRoutesServices): void {
  const { messages, events, files, users, access, sendMessage } = services;
  const route = defineRoutes(app, services.sessions);

  route(GetChannelMessageListForAdmin, async ({ body, auth }) => {
    // An area's member reads the messages sent since it entered (issue 69).
    const { historyFrom } = await access.requireHistory(auth, body.channelId);
    const page = await messages.page(body.channelId, auth.userId, {
      beforeId: body.beforeId,
      afterId: body.afterId,
      limit: body.limit,
      since: historyFrom,
    });
    return { success: true, discussion: page.messages, hasMore: page.hasMore };
  });

  // The sender is always the token owner; a userId in the body is not trusted.
  route(SendMessageToChannel, async ({ body, auth }) => {
    const message = await sendMessage({ sender: auth, channelId: body.channelId, text: body.message });
    return { success: true, ...said('message_sent'), res: message };
  });

  route(DeleteMessageById, async ({ body, auth }) => {
    const row = await messages.byId(body.msgId);
    if (!row) throw notFound('message_not_found');
    if (row.user_id !== auth.userId && !may(auth, null, 'messages.moderate')) throw forbidden('own_messages_only');
    await messages.remove(row.id);
    if (row.file_path) await files.remove(row.file_path);
    const channel = await services.channels.byId(row.channel_id);
    if (channel) events.emit('messageDeleted', { channel, messageId: row.id });
    return { success: true, ...said('message_deleted') };
  });

  app.register(async (scope) => {
    await scope.register(multipart, {
      throwFileSizeLimit: true,
      limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 8, parts: 10, fieldSize: 16 * 1024, headerPairs: 100 },
    });

    scope.post(UPLOAD_FILE_PATH, routeOptions(UploadFile), async (req): Promise<UploadFileResponse> => {
      const auth = await authenticate(services.sessions, req, UploadFile.access);
      if (!auth) throw forbidden();
      await services.diskReserve(req.log);
      await services.uploadLimit(auth.userId);
      const fields: Record<string, string> = {};
      let image: { bytes: Buffer; fileName: string } | undefined;
      try {
        for await (const part of req.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'image') throw badRequest('image_field', { field: part.fieldname });
            image = { bytes: await part.toBuffer(), fileName: part.filename };
          } else {
            fields[part.fieldname] = String(part.value);
          }
        }
      } catch (error) {
        throw multipartError(error);
      }
      const body = parseBody(UploadFileFields, fields);
      // Checked before the file is written: a refused sender leaves nothing on disk.
      await access.requireReader(auth, body.channelId);
      if (!image) throw badRequest('image_required');
      const mime = sniffImage(image.bytes);
      if (!mime) throw badRequest('image_invalid');

      const name = await files.save(image.bytes, mime);
      let message: Message;
      try {
        message = await sendMessage({
          sender: auth,
          channelId: body.channelId,
          text: body.textMsg,
          file: { name, fileName: displayFileName(image.fileName, mime), mime },
        });
      } catch (error) {
        await files.remove(name);
        throw error;
      }
      return { success: true, ...said('image_sent'), res: message };
    });
  });

  // Browsers load images without headers: the signed URL is the proof (see files.ts).
  app.get(`${FILES_PREFIX}:name`, fileLinkOptions, async (req, reply) => {
    const { name } = req.params as { name: string };
    const query = req.query as Record<string, unknown>;
    const param = (key: string) => (typeof query[key] === 'string' ? (query[key] as string) : '');
    if (!services.fileUrls.verify(name, param('uid'), param('exp'), param('sig'))) throw forbidden('file_link_expired');
    const file = await messages.byFileName(name);
    if (!file) throw notFound('file_not_found');
    const readerId = Number(param('uid'));
    const reader = await users.row(readerId);
    const who = { userId: readerId, role: reader?.role ?? '' };
    if (!reader || !(await access.mayReadAt(who, file.channel_id, file.created_at)))
      throw forbidden('channel_no_longer_readable');
    let bytes: Buffer;
    try {
      bytes = await readFile(files.pathOf(name));
    } catch {
      throw notFound('file_not_found');
    }
    const secondsLeft = Math.max(0, Number(param('exp')) - Math.floor(Date.now() / 1000));
    return reply
      .header('Content-Type', file.file_mime ?? 'application/octet-stream')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Disposition', contentDisposition(file.file_name ?? name))
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Cache-Control', `private, max-age=${Math.min(secondsLeft, 3600)}`)
      .send(bytes);
  });
}
