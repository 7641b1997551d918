/**
 * A sharer's upload of its stream's recording (issue 61; issue 69: a recording is evidence, and no upload fills the
 * disk). Nothing is written before the caller, the stream and its limit are known: the disk's reserve and the
 * caller's hourly count are asked before the body is read; the form's fields (streamId) come before its file, and
 * the stream is checked as soon as the file begins (a file before the fields is refused). Only the sharing page's
 * own stream, peer to peer (a stream through the media server is the server's to record), ended less than
 * VIDEO_UPLOAD_WINDOW_MS ago, once; the file at most the stream's length (the server's start to end) at
 * VIDEO_MAX_KBPS plus 1 MB, and VIDEO_MAX_BYTES, cut off the moment it passes. The duration kept is the server's.
 */
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import {
  UPLOAD_VIDEO_PATH,
  UploadVideo,
  UploadVideoFields,
  VIDEO_UPLOAD_SLACK_BYTES,
  VIDEO_UPLOAD_WINDOW_MS,
  type VideoRecording,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { CallLimiter } from '../auth/rate-limit.ts';
import type { SessionStore } from '../auth/sessions.ts';
import type { ChannelStore } from '../channels/store.ts';
import type { VideoConfig } from '../config/video.ts';
import type { DiskReserve } from '../http/disk-reserve.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../http/errors.ts';
import { authenticate, parseBody, routeOptions, type TokenOwner } from '../http/route.ts';
import type { VideoRow, VideoStore } from './store.ts';
import { guardedFile } from './upload-file.ts';

export interface VideoUploadServices {
  sessions: SessionStore;
  channels: Pick<ChannelStore, 'byId'>;
  videos: VideoStore;
  config: { video: VideoConfig };
  live: { isLive(streamId: string): Promise<boolean> };
  diskReserve: DiskReserve;
  videoLimits: { uploads: CallLimiter };
}

export const INVALID_VIDEO = 'video: send a WebM video recording (as MediaRecorder makes it).';
const FIELDS = 'streamId and durationMs, then video';
const MEGABYTE = 1024 * 1024;

function multipartError(error: unknown, maxBytes: number): unknown {
  const code = (error as { code?: string })?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(maxBytes);
  if (code === 'FST_FILES_LIMIT') return badRequest('video: send a single file.');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return badRequest(`Send multipart/form-data with ${FIELDS}.`);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return badRequest(`Send only the fields ${FIELDS}.`);
  if (code === 'FST_PROTO_VIOLATION') return badRequest('A field name is not allowed.');
  return error;
}

const tooLarge = (maxBytes: number) =>
  new HttpError(413, `video: the recording is larger than ${Math.round(maxBytes / MEGABYTE)} MB.`);

/** How long a sender refused mid-body may go on sending (to nowhere) before its connection is closed. */
const LINGER_MS = 10_000;

/**
 * The rest of a refused upload's body is read and dropped, so that the sender reads its answer (a connection
 * closed on unread bytes is reset, and the answer lost with it); one still sending after LINGER_MS is cut off.
 */
function discardRest(request: IncomingMessage): void {
  if (request.readableEnded) return;
  request.unpipe();
  request.resume();
  const timer = setTimeout(() => request.socket?.destroy(), LINGER_MS);
  timer.unref();
  request.once('end', () => clearTimeout(timer));
}

/** Where an upload may go, checked before its first byte: the stream's row, how long it lasted, its file's limit. */
interface Target {
  row: VideoRow;
  endedAt: Date;
  lastedMs: number;
  maxBytes: number;
  /** The error past maxBytes: the stream's length's, or VIDEO_MAX_BYTES's. */
  tooLarge: () => Error;
}

export function videoUploadRoute(app: FastifyInstance, services: VideoUploadServices): void {
  const { videos } = services;
  const { maxBytes, maxKbps } = services.config.video;

  /** The sender's own stream, peer to peer, over for less than the window, not kept yet: its limit. */
  async function targetOf(auth: TokenOwner, fields: Record<string, string>): Promise<Target> {
    if (fields.streamId === undefined) throw badRequest('video_fields_first');
    const body = parseBody(UploadVideoFields, fields);
    const row = await videos.byStream(body.streamId);
    // Someone else's stream is as unknown as one that never was.
    if (!row || row.user_id !== auth.userId) throw notFound('video_not_found');
    if (row.source === 'server') throw conflict('video_recorded_by_server');
    if (row.ended_at === null && (await services.live.isLive(row.stream_id))) throw conflict('video_still_live');
    const channel = await services.channels.byId(row.channel_id);
    if (!channel) throw notFound('channel_not_found');
    if (!channel.recording) throw conflict('voice_recording_off');
    // Its end never written (its server stopped while it was live): it ended by now at the latest.
    const endedAt = row.ended_at ? new Date(row.ended_at) : new Date();
    if (Date.now() - endedAt.getTime() > VIDEO_UPLOAD_WINDOW_MS)
      throw conflict('video_upload_too_late', { minutes: VIDEO_UPLOAD_WINDOW_MS / 60_000 });
    if (row.file_name) throw conflict('streamId: this stream’s recording is already kept.');
    const lastedMs = Math.max(0, endedAt.getTime() - Date.parse(row.started_at));
    const forStream = Math.ceil((lastedMs / 1000) * ((maxKbps * 1000) / 8)) + VIDEO_UPLOAD_SLACK_BYTES;
    const seconds = Math.ceil(lastedMs / 1000);
    const max = Math.ceil((forStream / MEGABYTE) * 10) / 10;
    return forStream < maxBytes
      ? {
          row,
          endedAt,
          lastedMs,
          maxBytes: forStream,
          tooLarge: () => new HttpError(413, 'video_too_large_for_stream', { seconds, max }),
        }
      : { row, endedAt, lastedMs, maxBytes, tooLarge: () => tooLarge(maxBytes) };
  }

  app.register(async (scope) => {
    await videos.prepare();
    await scope.register(multipart, {
      throwFileSizeLimit: true,
      limits: { fileSize: maxBytes, files: 1, fields: 4, parts: 6, fieldSize: 1024, headerPairs: 100 },
    });
    scope.post(UPLOAD_VIDEO_PATH, routeOptions(UploadVideo), async (req) => {
      const auth = await authenticate(services.sessions, req, UploadVideo.access);
      if (!auth) throw forbidden();
      await services.diskReserve(req.log);
      await services.videoLimits.uploads(auth.userId);
      const fields: Record<string, string> = {};
      let temporary: string | undefined;
      let kept: VideoRecording | undefined;
      try {
        for await (const part of req.parts()) {
          if (part.type !== 'file') {
            fields[part.fieldname] = String(part.value);
            continue;
          }
          // Refused before its file is read, or cut off past its limit: answered now, the rest read to nowhere.
          const refuse = (error: unknown) => {
            part.file.destroy();
            discardRest(req.raw);
            return error;
          };
          if (part.fieldname !== 'video') throw refuse(badRequest(`${part.fieldname}: send the recording in "video".`));
          const target = await targetOf(auth, fields).catch((error: unknown) => {
            throw refuse(error);
          });
          temporary = await videos.temporary();
          const file = guardedFile(temporary, {
            maxBytes: target.maxBytes,
            tooLarge: target.tooLarge,
            notVideo: (empty) => badRequest(empty ? 'video: a recording is required.' : INVALID_VIDEO),
          });
          await pipeline(part.file, file.sink).catch((error: unknown) => {
            throw refuse(error);
          });
          if (part.file.truncated) throw refuse(tooLarge(maxBytes));
          const { size, sha256 } = file.written();
          const { row, lastedMs, endedAt } = target;
          const saved = await videos.keep(row, {
            temporary,
            size,
            sha256,
            durationMs: lastedMs,
            endedAt,
            source: 'sharer',
          });
          if (!saved) throw conflict('streamId: this stream’s recording is already kept.');
          kept = videos.toRecording(saved, auth.userId);
          // Kept: whatever a hostile form sends after its file is not read.
          discardRest(req.raw);
          break;
        }
      } catch (error) {
        throw multipartError(error, maxBytes);
      } finally {
        if (temporary) await rm(temporary, { force: true });
      }
      if (!kept) throw badRequest('video: a recording is required.');
      return { success: true, result: 'Video saved', res: kept };
    });
  });
}
