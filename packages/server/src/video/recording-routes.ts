/**
 * Live video's recordings (issue 61): the sharing page uploads its recording after the stream, tied to the stream
 * it owned (WebM recognised by its bytes, at most VIDEO_MAX_BYTES, written to disk as it comes); the channel's
 * history lists them with links signed for the reader and served only to those who may see them (the stream's
 * audience, or its sharer), with byte ranges for seeking; VIDEO_RETENTION_DAYS sweeps them.
 */
import { createWriteStream } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import {
  ErrorResponseSchema,
  FileLink,
  GetChannelVideos,
  UPLOAD_VIDEO_PATH,
  UploadVideo,
  UploadVideoFields,
  type VideoRecording,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import type { PrivateCalls } from '../calls/private-calls.ts';
import type { ChannelAccess, Reader } from '../channels/access.ts';
import type { ChannelStore } from '../channels/store.ts';
import type { ChannelSummary } from '../channels/summary.ts';
import type { EventBus } from '../events.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../http/errors.ts';
import { authenticate, defineRoutes, parseBody, routeOptions } from '../http/route.ts';
import type { FileUrls } from '../messages/files.ts';
import { startRetentionSweep } from '../voice/retention.ts';
import type { VideoConfig } from './config.ts';
import { VIDEO_FILE_NAME, VIDEO_FILES_PREFIX, type VideoRow, type VideoStore } from './store.ts';
import { isWebmVideo, VIDEO_HEADER_WINDOW } from './webm.ts';

/** The GET of a recording, documented (the handler checks the link itself and answers in its own words). */
const fileOptions = {
  schema: {
    operationId: 'GetVideoFile',
    security: [],
    description: 'A recorded live video (video/webm), with byte ranges. The signed path is the proof.',
    params: FileLink.params,
    querystring: FileLink.querystring,
    response: { '4xx': ErrorResponseSchema },
  },
  validatorCompiler: () => (value: unknown) => ({ value }),
};

export interface VideoRecordingServices {
  sessions: SessionStore;
  access: ChannelAccess;
  channels: ChannelStore;
  privateCalls: Pick<PrivateCalls, 'isParty'>;
  users: { row(id: number): Promise<{ role: string } | undefined> };
  fileUrls: FileUrls;
  events: EventBus;
  videos: VideoStore;
  config: { video: VideoConfig };
  /** Whether a stream is live now (real time's, on any instance). */
  live: { isLive(streamId: string): Promise<boolean> };
}

export const INVALID_VIDEO = 'video: send a WebM video recording (as MediaRecorder makes it).';
/** How much longer than its stream was live a recording may say it lasts (it starts a moment before the ack). */
export const STREAM_LENGTH_TOLERANCE_MS = 2000;
const FIELDS = 'video, streamId and durationMs';

function multipartError(error: unknown, maxBytes: number): unknown {
  const code = (error as { code?: string })?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new HttpError(413, `video: the recording is larger than ${Math.round(maxBytes / 1048576)} MB.`);
  if (code === 'FST_FILES_LIMIT') return badRequest('video: send a single file.');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return badRequest(`Send multipart/form-data with ${FIELDS}.`);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return badRequest(`Send only the fields ${FIELDS}.`);
  if (code === 'FST_PROTO_VIOLATION') return badRequest('A field name is not allowed.');
  return error;
}

/** The first bytes of a file written to disk (where a WebM names its tracks). */
async function headOf(file: string): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = new Uint8Array(VIDEO_HEADER_WINDOW);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` of a file of `size` bytes; undefined for none or one this does not serve. */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const start = match[1] === '' ? Math.max(0, size - Number(match[2])) : Number(match[1]);
  const end = match[1] === '' || match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start <= end && start < size ? { start, end } : undefined;
}

export function videoRecordingRoutes(app: FastifyInstance, services: VideoRecordingServices): void {
  const { videos, access } = services;
  const route = defineRoutes(app, services.sessions);

  /**
   * The channel if `reader` may read it (a private call's hidden channel for its parties only), and from when
   * (`historyFrom`: an area's member sees the recordings of streams started since it entered, issue 69).
   */
  async function readable(
    reader: Reader,
    channelId: number,
  ): Promise<{ channel: ChannelSummary; historyFrom?: string }> {
    if (
      (await services.channels.isHidden(channelId)) &&
      (await services.privateCalls.isParty(reader.userId, channelId))
    ) {
      const channel = await services.channels.byId(channelId);
      if (channel) return { channel };
    }
    return access.requireHistory(reader, channelId);
  }

  /** Whether the reader sees every recording of the channel (its audience), or only its own. */
  const seesAll = async (reader: Reader, channel: ChannelSummary) =>
    channel.hidden ||
    channel.videoAudience === 'channel' ||
    (await access.may(reader, channel.id, 'channel.videoWatch'));

  route(GetChannelVideos, async ({ body, auth }) => {
    const { channel, historyFrom } = await readable(auth, body.channelId);
    const onlyUserId = (await seesAll(auth, channel)) ? undefined : auth.userId;
    const page = await videos.page(channel.id, {
      beforeId: body.beforeId,
      limit: body.limit,
      onlyUserId,
      since: historyFrom,
    });
    return { success: true, res: page.rows.map((row) => videos.toRecording(row, auth.userId)), hasMore: page.hasMore };
  });

  /** The upload's checks, once its file is on disk: the stream is the sender's, over, and this long at most. */
  async function keepUpload(
    auth: Reader,
    fields: Record<string, string>,
    temporary: string | undefined,
  ): Promise<VideoRecording> {
    const body = parseBody(UploadVideoFields, fields);
    if (!temporary) throw badRequest('video: a recording is required.');
    const { size } = await stat(temporary);
    if (size === 0) throw badRequest('video: a recording is required.');
    if (!isWebmVideo(await headOf(temporary))) throw badRequest(INVALID_VIDEO);
    const row = await videos.byStream(body.streamId);
    // Someone else's stream is as unknown as one that never was.
    if (!row || row.user_id !== auth.userId) throw notFound('video_not_found');
    if (row.ended_at === null && (await services.live.isLive(row.stream_id))) throw conflict('video_still_live');
    const channel = await services.channels.byId(row.channel_id);
    if (!channel) throw notFound('channel_not_found');
    if (!channel.recording) throw conflict('voice_recording_off');
    const endedAt = row.ended_at ? new Date(row.ended_at) : new Date();
    const lasted = endedAt.getTime() - Date.parse(row.started_at);
    if (body.durationMs > lasted + STREAM_LENGTH_TOLERANCE_MS)
      throw badRequest(
        `durationMs: the stream was live ${Math.round(lasted / 1000)} s; the recording cannot be longer.`,
      );
    const kept = await videos.keep(row, { temporary, size, durationMs: body.durationMs, endedAt });
    if (!kept) throw conflict('streamId: this stream’s recording is already kept.');
    return videos.toRecording(kept, auth.userId);
  }

  app.register(async (scope) => {
    const maxBytes = services.config.video.maxBytes;
    await scope.register(multipart, {
      throwFileSizeLimit: true,
      limits: { fileSize: maxBytes, files: 1, fields: 4, parts: 6, fieldSize: 1024, headerPairs: 100 },
    });
    scope.post(UPLOAD_VIDEO_PATH, routeOptions(UploadVideo), async (req) => {
      const auth = await authenticate(services.sessions, req, UploadVideo.access);
      if (!auth) throw forbidden();
      const fields: Record<string, string> = {};
      let temporary: string | undefined;
      try {
        try {
          for await (const part of req.parts()) {
            if (part.type !== 'file') fields[part.fieldname] = String(part.value);
            else if (part.fieldname !== 'video') throw badRequest(`${part.fieldname}: send the recording in "video".`);
            else {
              temporary = await videos.temporary();
              // To disk as it comes: a recording of minutes is never held in memory.
              await pipeline(part.file, createWriteStream(temporary, { flags: 'wx', mode: 0o600 }));
            }
          }
        } catch (error) {
          throw multipartError(error, maxBytes);
        }
        return { success: true, result: 'Video saved', res: await keepUpload(auth, fields, temporary) };
      } finally {
        if (temporary) await rm(temporary, { force: true });
      }
    });
  });

  /** May this reader (a signed link's) see this recording now? */
  async function mayServe(readerId: number, row: VideoRow): Promise<boolean> {
    const reader = await services.users.row(readerId);
    if (!reader) return false;
    const who = { userId: readerId, role: reader.role };
    const read = await readable(who, row.channel_id).catch(() => undefined);
    if (!read) return false;
    if (row.user_id === readerId) return true;
    const since = read.historyFrom;
    return (
      (since === undefined || Date.parse(row.started_at) >= Date.parse(since)) && (await seesAll(who, read.channel))
    );
  }

  // <video> loads without headers: the signed URL is the proof (messages/files.ts).
  app.get(`${VIDEO_FILES_PREFIX}:name`, fileOptions, async (req, reply) => {
    const { name } = req.params as { name: string };
    const query = req.query as Record<string, unknown>;
    const param = (key: string) => (typeof query[key] === 'string' ? (query[key] as string) : '');
    if (!VIDEO_FILE_NAME.test(name) || !services.fileUrls.verify(name, param('uid'), param('exp'), param('sig')))
      throw forbidden('This file link is invalid or has expired: reload the videos to get a new one.');
    const row = await videos.byFileName(name);
    if (!row) throw notFound('File');
    if (!(await mayServe(Number(param('uid')), row))) throw forbidden('You may no longer see this video.');
    const size = await videos.sizeOnDisk(row);
    if (size === undefined) throw notFound('File');
    const range = byteRange(req.headers.range, size);
    const secondsLeft = Math.max(0, Number(param('exp')) - Math.floor(Date.now() / 1000));
    reply
      .header('Content-Type', 'video/webm')
      .header('Accept-Ranges', 'bytes')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Disposition', `inline; filename="${name}"`)
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Cache-Control', `private, max-age=${Math.min(secondsLeft, 3600)}`);
    if (req.headers.range && !range) return reply.status(416).header('Content-Range', `bytes */${size}`).send();
    if (!range) return reply.header('Content-Length', String(size)).send(videos.readStream(row));
    return reply
      .status(206)
      .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
      .header('Content-Length', String(range.end - range.start + 1))
      .send(videos.readStream(row, range));
  });

  const offChannelDeleted = services.events.on('channelDeleted', ({ channel }) => {
    videos.removeChannelFolder(channel.id).catch((error) => app.log.error({ err: error }, 'video folder not removed'));
  });
  const stopSweep = startRetentionSweep(videos, services.config.video.retentionMs, (error) =>
    app.log.error({ err: error }, 'video retention sweep failed'),
  );
  app.addHook('onClose', async () => {
    offChannelDeleted();
    stopSweep();
  });
}
