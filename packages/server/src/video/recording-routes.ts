/**
 * Live video's recordings (issue 61): the sharing page uploads its recording after the stream (upload-route.ts),
 * or the media server records it; the channel's history lists them with links signed for the reader and served only
 * to those who may see them (the stream's audience, or its sharer), with byte ranges for seeking, each with its
 * SHA-256 and who recorded it (issue 69); VIDEO_RETENTION_DAYS sweeps them.
 */
import { ErrorResponseSchema, FileLink, GetChannelVideos } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import type { PrivateCalls } from '../calls/private-calls.ts';
import type { ChannelAccess, Reader } from '../channels/access.ts';
import type { ChannelStore } from '../channels/store.ts';
import type { ChannelSummary } from '../channels/summary.ts';
import type { VideoConfig } from '../config/video.ts';
import type { EventBus } from '../events.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { defineRoutes } from '../http/route.ts';
import type { FileUrls } from '../messages/files.ts';
import { startRetentionSweep } from '../process/retention.ts';
import { VIDEO_FILE_NAME, VIDEO_FILES_PREFIX, type VideoRow, type VideoStore } from './store.ts';
import { type VideoUploadServices, videoUploadRoute } from './upload-route.ts';

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

export interface VideoRecordingServices extends VideoUploadServices {
  sessions: SessionStore;
  access: ChannelAccess;
  channels: ChannelStore;
  privateCalls: Pick<PrivateCalls, 'isParty'>;
  users: { row(id: number): Promise<{ role: string } | undefined> };
  fileUrls: FileUrls;
  events: EventBus;
  videos: VideoStore;
  config: { video: VideoConfig };
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

  videoUploadRoute(app, services);

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
