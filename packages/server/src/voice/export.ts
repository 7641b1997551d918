/**
 * A channel's transmissions for a time range as one zip, streamed: each audio file is read from disk while
 * the archive is sent (yazl), never gathered in memory; then the channel's recorded live videos of the range
 * (issue 61) under video/; index.csv (time, talker, duration, file, and for a video its file's SHA-256 and who
 * recorded it, issue 69: a copy can be checked later) ends it.
 */
import * as protocol from '@talkgroup/protocol';
import type { FastifyReply } from 'fastify';
import type { ChannelSummary } from '../channels/store.ts';
import type { VideoStore } from '../video/store.ts';
import type { VoiceStore } from './store.ts';

const documentOnly = () => (value: unknown) => ({ value });

/** OpenAPI documentation of the routes that are not JSON calls (the handler checks the input itself). */
export const exportOptions = {
  file: {
    schema: {
      operationId: 'GetVoiceFile',
      security: [],
      description:
        'A recorded transmission (audio/webm or audio/ogg, Opus; audio/mp4 from Safari). The signed path is the proof.',
      params: protocol.FileLink.params,
      querystring: protocol.FileLink.querystring,
      response: { '4xx': protocol.ErrorResponseSchema },
    },
    validatorCompiler: documentOnly,
  },
  export: {
    schema: {
      operationId: 'ExportVoiceMessages',
      description: `Access: ${protocol.VoiceExport.access} (${protocol.describeAccess(protocol.VoiceExport.access)}). Answers application/zip. See docs/api.md.`,
      body: protocol.VoiceExport.body,
      response: { '4xx': protocol.ErrorResponseSchema },
    },
    validatorCompiler: documentOnly,
  },
};

function fileStem(createdAt: string, id: number): string {
  return `${createdAt.replace(/\.\d+Z$/, 'Z').replaceAll(':', '-')}-${id}`;
}

export async function streamVoiceExport(
  reply: FastifyReply,
  voice: VoiceStore,
  channel: ChannelSummary,
  asked: Date,
  until: Date,
  /** Only what falls in this window too (a private call's: from its answer to its end). */
  within?: { from: Date; to: Date },
  /** The channel's recorded live videos (issue 61), exported with its voice. */
  videos?: Pick<VideoStore, 'inRange' | 'sizeOnDisk' | 'pathOf'>,
): Promise<FastifyReply> {
  // yazl is loaded by the first export: most instances never make one.
  const { default: yazl } = await import('yazl');
  const zip = new yazl.ZipFile();
  const from = within ? new Date(Math.max(asked.getTime(), within.from.getTime())) : asked;
  const to = within ? new Date(Math.max(from.getTime(), Math.min(until.getTime(), within.to.getTime()))) : until;
  // Cells by protocol's one CSV rule: a talker named "=HYPERLINK(...)" stays text in a spreadsheet.
  const lines = [protocol.csvLine(['time', 'talker', 'duration', 'file', 'sha256', 'source'])];
  for await (const row of voice.inRange(channel.id, from, to)) {
    // A file the sweep removed meanwhile is left out rather than breaking the archive halfway.
    if ((await voice.sizeOnDisk(row)) === undefined) continue;
    const extension = row.file_name.split('.').pop() ?? 'webm';
    const name = `audio/${fileStem(row.created_at, row.id)}.${extension}`;
    // Opus is already compressed: stored, not deflated again.
    zip.addFile(voice.pathOf(row), name, { compress: false, mtime: new Date(row.created_at) });
    const seconds = (row.duration_ms / 1000).toFixed(1);
    lines.push(protocol.csvLine([row.created_at, row.user_display_name, seconds, name, '', '']));
  }
  for (const row of videos ? await videos.inRange(channel.id, from, to) : []) {
    if (!videos || (await videos.sizeOnDisk(row)) === undefined) continue;
    const name = `video/${fileStem(row.started_at, row.id)}.webm`;
    zip.addFile(videos.pathOf(row), name, { compress: false, mtime: new Date(row.started_at) });
    const seconds = ((row.duration_ms ?? 0) / 1000).toFixed(1);
    const { sha256, source } = row;
    lines.push(protocol.csvLine([row.started_at, row.user_display_name, seconds, name, sha256 ?? '', source ?? '']));
  }
  zip.addBuffer(Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8'), 'index.csv', { mtime: new Date() });
  zip.end();
  const day = (d: Date) => d.toISOString().slice(0, 16).replaceAll(':', '-');
  // A private call's archive does not carry its hidden room's key.
  const stem = channel.hidden ? 'private-call' : channel.rtcSession.replace(/[^\w.-]/g, '_');
  const fileName = `voice-${stem}-${day(from)}-${day(to)}.zip`;
  return reply
    .header('Content-Type', 'application/zip')
    .header('Content-Disposition', `attachment; filename="${fileName}"`)
    .header('Cache-Control', 'no-store')
    .send(zip.outputStream);
}
