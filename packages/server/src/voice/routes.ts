/**
 * Voice history (issue 15): each transmission recorded by the talker's browser is uploaded here, listed in
 * the channel's timeline, served by signed expiring links like chat images, exported as a zip and swept
 * after VOICE_RETENTION_DAYS.
 */
import multipart from '@fastify/multipart';
import {
  DeleteVoiceMessage,
  GetChannelVoiceMessages,
  UPLOAD_VOICE_MESSAGE_PATH,
  UploadVoiceMessage,
  UploadVoiceMessageFields,
  type UploadVoiceMessageResponse,
  VOICE_EXPORT_PATH,
  VoiceExport,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { AuditStore } from '../audit/store.ts';
import type { CallLimiter } from '../auth/rate-limit.ts';
import type { SessionStore } from '../auth/sessions.ts';
import type { PrivateCalls } from '../calls/private-calls.ts';
import type { ChannelAccess } from '../channels/access.ts';
import type { ChannelStore } from '../channels/store.ts';
import type { Config } from '../config/config.ts';
import { isUniqueViolation } from '../db/unique.ts';
import type { TalkBurstStore } from '../floor/talk-bursts.ts';
import type { DiskReserve } from '../http/disk-reserve.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../http/errors.ts';
import { serverText } from '../http/messages.ts';
import { authenticate, defineRoutes, parseBody, routeOptions } from '../http/route.ts';
import type { FileUrls } from '../messages/files.ts';
import type { UserStore } from '../users/store.ts';
import type { VideoStore } from '../video/store.ts';
import { sniffVoice } from './audio.ts';
import { exportOptions, streamVoiceExport } from './export.ts';
import { type KeepServices, keepTransmission } from './keep.ts';
import { startRetentionSweep } from './retention.ts';
import { VOICE_FILE_NAME, VOICE_FILES_PREFIX } from './store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface VoiceRoutesServices extends KeepServices {
  access: ChannelAccess;
  audit: AuditStore;
  channels: ChannelStore;
  config: Config;
  fileUrls: FileUrls;
  privateCalls: PrivateCalls;
  sessions: SessionStore;
  talkBursts: TalkBurstStore;
  users: UserStore;
  voiceUploadLimit: CallLimiter;
  /** No upload while DATA_DIR's disk is under DISK_RESERVE_MB (issue 69). */
  diskReserve: DiskReserve;
  /** Live video's recordings (issue 61): the export carries the channel's too. */
  videos?: VideoStore;
}

export const INVALID_AUDIO = 'audio: send an Opus recording in WebM or Ogg (as MediaRecorder makes it).';
export const RECORDING_OFF = serverText('voice_recording_off');
export const RECORDED_BY_SERVER = serverText('voice_recorded_by_server');
export const NO_GRANT = serverText('voice_no_grant');
/** How much longer than its grant a recording may last (it starts at the press, a moment before the grant). */
export const GRANT_LENGTH_TOLERANCE_MS = 2000;
const FIELDS = 'audio, channelId, startedAt, durationMs and clientId';

function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

function multipartError(error: unknown, maxBytes: number): unknown {
  const code = (error as { code?: string })?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new HttpError(413, `audio: the recording is larger than ${megabytes(maxBytes)}.`);
  if (code === 'FST_FILES_LIMIT') return badRequest('audio: send a single file.');
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return badRequest(`Send multipart/form-data with ${FIELDS}.`);
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return badRequest(`Send only the fields ${FIELDS}.`);
  if (code === 'FST_PROTO_VIOLATION') return badRequest('A field name is not allowed.');
  return error;
}

export function voiceRoutes(app: FastifyInstance, services: VoiceRoutesServices): void {
  const { voice, access, events, users, config } = services;
  const route = defineRoutes(app, services.sessions);

  /**
   * The floor grant (talk burst) an upload belongs to (issue 35), found by the id the floor's answer gave
   * (issue 48): a record nobody can forge. The grant is the sender's, in this channel; the recording lasts no
   * longer than the grant did (plus GRANT_LENGTH_TOLERANCE_MS; a grant still open counts until now); no other
   * upload used it; and the browser recorded it (the mesh): what goes through the media server, the server
   * records. A transmission made while the link dropped after its grant had its grant: it is kept once. An
   * upload naming no grant (an older page) is answered as one without a grant was before.
   */
  async function grantOf(
    userId: number,
    channel: { id: number; voiceMode: 'mesh' | 'server' },
    grantId: string | undefined,
    durationMs: number,
  ) {
    const recordedByServer = config.janusUrls.length > 0 && channel.voiceMode !== 'mesh';
    const grant = grantId === undefined ? undefined : await services.talkBursts.grant(grantId, channel.id);
    if (grantId === undefined || !grant) {
      if (recordedByServer) throw conflict('voice_recorded_by_server');
      if (grantId === undefined) throw conflict('voice_no_grant');
      throw badRequest('grantId: no floor grant has this id: name the grantId of the floor answer.');
    }
    if ('elsewhere' in grant) throw badRequest('grantId: this floor grant was given in another channel.');
    if (grant.userId !== userId) throw forbidden('grantId: this floor grant was given to someone else.');
    if (grant.plane === 'server') throw conflict('voice_recorded_by_server');
    if (grant.used) throw conflict('voice_no_grant');
    const lasted = (grant.endedAt ?? new Date()).getTime() - grant.startedAt.getTime();
    if (durationMs > lasted + GRANT_LENGTH_TOLERANCE_MS) throw conflict('voice_no_grant');
    return grant;
  }

  /**
   * A private call's hidden channel: its voice history is its two parties' (the pair of its calls); for anyone
   * else it is a channel that does not exist (issue 35), which `requireReader` answers.
   */
  const partyOfHidden = async (userId: number, channelId: number) =>
    (await services.channels.isHidden(channelId)) && (await services.privateCalls.isParty(userId, channelId));

  /**
   * Compliance (issue 35): where the organisation set PRIVATE_CALLS_AUDITABLE=true, one who exports voice may
   * export a private call's, giving why; who, which call and why go to the audit log before a byte is sent.
   * Otherwise a private call is answered as a channel that does not exist.
   */
  async function callToExport(
    auth: { userId: number },
    callId: number,
    reason: string | undefined,
    request: { address: string; requestId: string },
  ) {
    const call = config.privateCallsAuditable ? await services.privateCalls.byId(callId) : undefined;
    if (!call) throw notFound('private_call_not_found');
    if (!reason) throw badRequest('reason: say why this private call is exported (it is kept in the audit log).');
    const channel = await services.channels.byId(call.channelId);
    if (!channel) throw notFound('private_call_not_found');
    await services.audit.write({
      actorId: auth.userId,
      action: 'privateCall.export',
      targetType: 'privateCall',
      targetId: call.callId,
      targetName: `${call.caller.name} → ${call.callee.name}`,
      changes: { reason: { before: null, after: reason } },
      address: request.address,
      requestId: request.requestId,
    });
    const from = Date.parse(call.answeredAt ?? call.startedAt);
    const to = call.endedAt ? Date.parse(call.endedAt) : Date.now();
    return { channel, window: { from: new Date(from - 1000), to: new Date(to + 1000) } };
  }

  route(GetChannelVoiceMessages, async ({ body, auth }) => {
    // An area's member hears what was said since it entered (issue 69).
    const since = (await partyOfHidden(auth.userId, body.channelId))
      ? undefined
      : (await access.requireHistory(auth, body.channelId)).historyFrom;
    const page = await voice.page(body.channelId, auth.userId, { beforeId: body.beforeId, limit: body.limit, since });
    return { success: true, res: page.messages, hasMore: page.hasMore };
  });

  route(DeleteVoiceMessage, async ({ body }) => {
    const row = await voice.byId(body.id);
    if (!row) throw notFound('Voice message');
    await voice.remove(row);
    const channel = await services.channels.byId(row.channel_id);
    if (channel) events.emit('voiceMessageDeleted', { channel, voiceMessageId: row.id });
    return { success: true, result: 'Voice message deleted' };
  });

  app.register(async (scope) => {
    await scope.register(multipart, {
      throwFileSizeLimit: true,
      limits: { fileSize: config.voiceMaxBytes, files: 1, fields: 8, parts: 10, fieldSize: 1024, headerPairs: 100 },
    });

    scope.post(
      UPLOAD_VOICE_MESSAGE_PATH,
      routeOptions(UploadVoiceMessage),
      async (req): Promise<UploadVoiceMessageResponse> => {
        const auth = await authenticate(services.sessions, req, UploadVoiceMessage.access);
        if (!auth) throw forbidden();
        await services.diskReserve(req.log);
        const fields: Record<string, string> = {};
        let audio: Buffer | undefined;
        try {
          for await (const part of req.parts()) {
            if (part.type === 'file') {
              if (part.fieldname !== 'audio') throw badRequest(`${part.fieldname}: send the recording in "audio".`);
              audio = await part.toBuffer();
            } else {
              fields[part.fieldname] = String(part.value);
            }
          }
        } catch (error) {
          throw multipartError(error, config.voiceMaxBytes);
        }
        const body = parseBody(UploadVoiceMessageFields, fields);
        // Checked before anything is written: a refused sender (a listener) leaves nothing on disk. A private
        // call's parties talk there through their call, not a membership.
        const hidden = await services.channels.isHidden(body.channelId);
        const channel =
          hidden && (await services.privateCalls.isParty(auth.userId, body.channelId))
            ? await services.channels.byId(body.channelId)
            : (await access.require(auth, body.channelId, 'channel.talk')).channel;
        if (!channel) throw notFound('channel_not_found');
        if (!channel.recording) throw conflict('voice_recording_off');
        if (!audio || audio.byteLength === 0) throw badRequest('audio: a recording is required.');
        const mime = sniffVoice(audio);
        if (!mime) throw badRequest(INVALID_AUDIO);
        if (body.clientId) {
          const already = await voice.byClientId(auth.userId, body.clientId);
          if (already)
            return { success: true, result: 'Voice message saved', res: voice.toVoiceMessage(already, auth.userId) };
        }
        await services.voiceUploadLimit(auth.userId);
        const grant = await grantOf(auth.userId, channel, body.grantId, body.durationMs);
        // An all call's other channels: the sender may talk there, and held the floor then (the call's grant, one
        // id for all its channels); one that does not record, or where the call was refused, is left out.
        const also = [];
        for (const channelId of body.alsoChannelIds ?? []) {
          if (channelId === channel.id) continue;
          const { channel: other } = await access.require(auth, channelId, 'channel.talk');
          if (!other.recording) continue;
          const granted = await grantOf(auth.userId, other, body.grantId, body.durationMs).catch((error) => {
            // The call was refused there (no grant of this id in that channel), or that grant is spent.
            if (error instanceof HttpError && [400, 409].includes(error.statusCode)) return undefined;
            throw error;
          });
          if (granted) also.push({ channel: other, grant: granted });
        }
        const message = await keepTransmission(services, channel, {
          userId: auth.userId,
          // Dated by the server: the grant's start, not the browser's clock.
          startedAt: grant.startedAt,
          durationMs: body.durationMs,
          mime,
          bytes: audio,
          clientId: body.clientId,
          talkBurstId: grant.id,
        }).catch((error: unknown) => {
          // The same grant uploaded twice at once: the unique index keeps one.
          if (isUniqueViolation(error)) throw conflict('voice_no_grant');
          throw error;
        });
        // The same recording, dated alike, in each (issue 37: an all call is one recording).
        for (const { channel: other, grant: granted } of also)
          await keepTransmission(services, other, {
            userId: auth.userId,
            startedAt: grant.startedAt,
            durationMs: body.durationMs,
            mime,
            bytes: audio,
            talkBurstId: granted.id,
          }).catch((error: unknown) => {
            if (!isUniqueViolation(error)) throw error;
          });
        return { success: true, result: 'Voice message saved', res: message };
      },
    );
  });

  // <audio> loads without headers: the signed URL is the proof (messages/files.ts).
  app.get(`${VOICE_FILES_PREFIX}:name`, exportOptions.file, async (req, reply) => {
    const { name } = req.params as { name: string };
    const query = req.query as Record<string, unknown>;
    const param = (key: string) => (typeof query[key] === 'string' ? (query[key] as string) : '');
    if (!VOICE_FILE_NAME.test(name) || !services.fileUrls.verify(name, param('uid'), param('exp'), param('sig')))
      throw forbidden('This file link is invalid or has expired: reload the messages to get a new one.');
    const row = await voice.byFileName(name);
    if (!row) throw notFound('File');
    const readerId = Number(param('uid'));
    const reader = await users.row(readerId);
    if (
      !reader ||
      !(
        (await access.mayReadAt({ userId: readerId, role: reader.role }, row.channel_id, row.created_at)) ||
        (await partyOfHidden(readerId, row.channel_id))
      )
    )
      throw forbidden('You may no longer read this channel.');
    const size = await voice.sizeOnDisk(row);
    if (size === undefined) throw notFound('File');
    const secondsLeft = Math.max(0, Number(param('exp')) - Math.floor(Date.now() / 1000));
    return reply
      .header('Content-Type', row.mime)
      .header('Content-Length', String(size))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Disposition', `inline; filename="${name}"`)
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Cache-Control', `private, max-age=${Math.min(secondsLeft, 3600)}`)
      .send(voice.readStream(row));
  });

  app.post(VOICE_EXPORT_PATH, exportOptions.export, async (req, reply) => {
    const auth = await authenticate(services.sessions, req, VoiceExport.access);
    if (!auth) throw forbidden();
    const body = parseBody(VoiceExport.body, req.body);
    if (body.to.getTime() <= body.from.getTime()) throw badRequest('to: must be after from.');
    if (body.callId !== undefined) {
      const call = await callToExport(auth, body.callId, body.reason, { address: req.ip, requestId: req.id });
      return streamVoiceExport(reply, voice, call.channel, body.from, body.to, call.window, services.videos);
    }
    if (body.channelId === undefined) throw badRequest('channelId: required (or callId, for a private call).');
    const channel = await access.requireReader(auth, body.channelId);
    return streamVoiceExport(reply, voice, channel, body.from, body.to, undefined, services.videos);
  });

  const offChannelDeleted = events.on('channelDeleted', ({ channel }) => {
    voice.removeChannelFolder(channel.id).catch((error) => app.log.error({ err: error }, 'voice folder not removed'));
  });
  const stopSweep = startRetentionSweep(voice, config.voiceRetentionMs, (error) =>
    app.log.error({ err: error }, 'voice retention sweep failed'),
  );
  app.addHook('onClose', async () => {
    offChannelDeleted();
    stopSweep();
  });
}
