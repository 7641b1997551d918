/**
 * Recording on the server (issue 26): while a participant holds the floor, Janus records what it receives from
 * it (AudioBridge's per-participant `record`, a .mjr file); at the release the file is converted to Ogg Opus
 * with janus-pp-rec (Debian's janus-tools) and kept in the channel's voice history, like an upload. Nothing
 * depends on the talker's browser: it may close at the release.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import type { ChannelSummary } from '../../../channels/store.ts';
import type { Services } from '../../../services.ts';
import { sniffVoice } from '../../../voice/audio.ts';
import { keepTransmission } from '../../../voice/keep.ts';

const run = promisify(execFile);
/** Shorter than this is a press that let go at once: nothing to keep. */
const SHORTEST_TAKE_MS = 300;

export interface Take {
  /** Janus appends `-audio.mjr` to this base name. */
  base: string;
  channelId: number;
  userId: number;
  startedAt: Date;
}

export function takes(deps: {
  services: Pick<Services, 'voice' | 'activities' | 'events' | 'config' | 'missed'>;
  channelOf: (channelId: number) => Promise<ChannelSummary | undefined>;
  log: FastifyBaseLogger;
}) {
  const { services, log } = deps;
  const folder = services.config.janusRecordingsDir;

  /** Made once (the unmute that starts a take must not wait for the disk); made again if it was removed. */
  let folderMade: Promise<unknown> | undefined;

  return {
    /** A new take's file name, in the folder Janus and this server share. */
    async begin(channelId: number, userId: number): Promise<Take> {
      folderMade ??= mkdir(folder, { recursive: true, mode: 0o777 }).catch((error) => {
        folderMade = undefined;
        throw error;
      });
      await folderMade;
      const base = path.join(folder, `take-${channelId}-${userId}-${Date.now()}-${randomBytes(4).toString('hex')}`);
      return { base, channelId, userId, startedAt: new Date() };
    },

    /** The take ended (Janus closed its file): convert it and keep it; the files go in any case. */
    async finish(take: Take): Promise<void> {
      const durationMs = Date.now() - take.startedAt.getTime();
      const mjr = `${take.base}-audio.mjr`;
      const ogg = `${take.base}.opus`;
      try {
        const channel = await deps.channelOf(take.channelId);
        if (!channel?.recording || durationMs < SHORTEST_TAKE_MS) return;
        await run('janus-pp-rec', [mjr, ogg], { timeout: 60_000 });
        const bytes = await readFile(ogg);
        const mime = sniffVoice(bytes);
        if (!mime) throw new Error(`janus-pp-rec wrote no Ogg Opus file from ${mjr}`);
        await keepTransmission(services, channel, {
          userId: take.userId,
          startedAt: take.startedAt,
          durationMs,
          mime,
          bytes,
        });
      } catch (error) {
        log.error({ err: error, take: take.base }, 'a transmission recorded by the media server was not kept');
      } finally {
        await Promise.all([rm(mjr, { force: true }), rm(ogg, { force: true })]);
      }
    },
  };
}

export type Takes = ReturnType<typeof takes>;
