/**
 * A channel's transmissions for a time range as one zip, streamed: each audio file is read from disk while
 * the archive is sent (yazl), never gathered in memory; index.csv (time, talker, duration, file) ends it.
 */
import * as protocol from '@talkgroup/protocol';
import type { FastifyReply } from 'fastify';
import yazl from 'yazl';
import type { ChannelSummary } from '../channels/store.ts';
import type { VoiceStore } from './store.ts';

const documentOnly = () => (value: unknown) => ({ value });

/** OpenAPI documentation of the routes that are not JSON calls (the handler checks the input itself). */
export const exportOptions = {
  file: {
    schema: {
      operationId: 'GetVoiceFile',
      security: [],
      description: 'A recorded transmission (audio/webm or audio/ogg, Opus). The signed path is the proof.',
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

/** One CSV cell: quoted when needed; a leading = + - @ is neutralised so that a spreadsheet does not run it. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function fileStem(createdAt: string, id: number): string {
  return `${createdAt.replace(/\.\d+Z$/, 'Z').replaceAll(':', '-')}-${id}`;
}

export async function streamVoiceExport(
  reply: FastifyReply,
  voice: VoiceStore,
  channel: ChannelSummary,
  from: Date,
  to: Date,
): Promise<FastifyReply> {
  const zip = new yazl.ZipFile();
  const lines = ['time,talker,duration,file'];
  for await (const row of voice.inRange(channel.id, from, to)) {
    // A file the sweep removed meanwhile is left out rather than breaking the archive halfway.
    if ((await voice.sizeOnDisk(row)) === undefined) continue;
    const extension = row.file_name.split('.').pop() ?? 'webm';
    const name = `audio/${fileStem(row.created_at, row.id)}.${extension}`;
    // Opus is already compressed: stored, not deflated again.
    zip.addFile(voice.pathOf(row), name, { compress: false, mtime: new Date(row.created_at) });
    const seconds = (row.duration_ms / 1000).toFixed(1);
    lines.push([row.created_at, row.user_display_name, seconds, name].map(csvCell).join(','));
  }
  zip.addBuffer(Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8'), 'index.csv', { mtime: new Date() });
  zip.end();
  const day = (d: Date) => d.toISOString().slice(0, 16).replaceAll(':', '-');
  const fileName = `voice-${channel.rtcSession.replace(/[^\w.-]/g, '_')}-${day(from)}-${day(to)}.zip`;
  return reply
    .header('Content-Type', 'application/zip')
    .header('Content-Disposition', `attachment; filename="${fileName}"`)
    .header('Cache-Control', 'no-store')
    .send(zip.outputStream);
}
