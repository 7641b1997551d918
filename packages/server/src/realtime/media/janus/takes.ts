/**
 * Recording on the server (issue 26): while a participant holds the floor, Janus records what it receives from
 * it (the VideoRoom publisher's `record`, or the AudioBridge participant's: a .mjr file, as it arrived); at the
 * release the file is converted to Ogg Opus with janus-pp-rec (Debian's janus-tools) and kept in the channel's
 * voice history, like an upload. Nothing depends on the talker's browser: it may close at the release. An all
 * call is recorded once, and kept in each of its channels.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import type { ActivityStore } from '../../../activities/store.ts';
import type { ChannelSummary } from '../../../channels/store.ts';
import type { Config } from '../../../config/config.ts';
import { isUniqueViolation } from '../../../db/unique.ts';
import type { EventBus } from '../../../events.ts';
import type { TalkBurstStore } from '../../../floor/talk-bursts.ts';
import { sniffVoice } from '../../../voice/audio.ts';
import { keepTransmission } from '../../../voice/keep.ts';
import type { MissedStore } from '../../../voice/missed.ts';
import type { VoiceStore } from '../../../voice/store.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface TakeServices {
  activities: ActivityStore;
  config: Config;
  events: EventBus;
  missed: MissedStore;
  talkBursts: TalkBurstStore;
  voice: VoiceStore;
}

const run = promisify(execFile);
/** Shorter than this is a press that let go at once: nothing to keep. */
const SHORTEST_TAKE_MS = 300;

export interface Take {
  /** The base name Janus records to (it appends its own suffix). */
  base: string;
  /** The file Janus writes: `{base}-audio.mjr` (AudioBridge), `{base}-audio-{mindex}.mjr` (VideoRoom). */
  file: string;
  channelId: number;
  userId: number;
  startedAt: Date;
  /** An all call's recording: the other channels it is kept in too (read when it ends). */
  alsoIn?: () => number[];
}

export function takes(deps: {
  services: TakeServices;
  channelOf: (channelId: number) => Promise<ChannelSummary | undefined>;
  log: FastifyBaseLogger;
}) {
  const { services, log } = deps;
  const folder = services.config.janusRecordingsDir;

  /** Made once (the unmute that starts a take must not wait for the disk); made again if it was removed. */
  let folderMade: Promise<unknown> | undefined;

  return {
    /** A new take's file name, in the folder Janus and this server share. */
    async begin(channelId: number, userId: number, alsoIn?: () => number[]): Promise<Take> {
      folderMade ??= mkdir(folder, { recursive: true, mode: 0o777 }).catch((error) => {
        folderMade = undefined;
        throw error;
      });
      await folderMade;
      const base = path.join(folder, `take-${channelId}-${userId}-${Date.now()}-${randomBytes(4).toString('hex')}`);
      return {
        base,
        file: `${base}-audio.mjr`,
        channelId,
        userId,
        startedAt: new Date(),
        ...(alsoIn ? { alsoIn } : {}),
      };
    },

    /**
     * The take ended (Janus closed its file): convert it and keep it. The files go in any case, and before the
     * take is listed: whoever sees it in the history finds nothing of it left in the shared folder.
     */
    async finish(take: Take): Promise<void> {
      const durationMs = Date.now() - take.startedAt.getTime();
      const mjr = take.file;
      const ogg = `${take.base}.opus`;
      const removeFiles = () => Promise.all([rm(mjr, { force: true }), rm(ogg, { force: true })]);
      try {
        // An all call's one take is kept in each of its channels that records (issue 37).
        const channels = await Promise.all([take.channelId, ...(take.alsoIn?.() ?? [])].map(deps.channelOf));
        const recording = channels.filter((channel) => channel?.recording === true) as ChannelSummary[];
        if (recording.length === 0 || durationMs < SHORTEST_TAKE_MS) return;
        await run('janus-pp-rec', [mjr, ogg], { timeout: 60_000 });
        const bytes = await readFile(ogg);
        await removeFiles();
        const mime = sniffVoice(bytes);
        if (!mime) throw new Error(`janus-pp-rec wrote no Ogg Opus file from ${mjr}`);
        for (const channel of recording) {
          // Linked to its grant: the take and the grant are one transmission (the reports count it once).
          const talkBurstId = await services.talkBursts
            .forTake(take.userId, channel.id, take.startedAt)
            .catch(() => undefined);
          const kept = { userId: take.userId, startedAt: take.startedAt, durationMs, mime, bytes };
          await keepTransmission(services, channel, { ...kept, ...(talkBurstId ? { talkBurstId } : {}) }).catch(
            (error: unknown) => {
              // Its grant named by another take meanwhile (the unique index): kept unlinked.
              if (!isUniqueViolation(error) || !talkBurstId) throw error;
              return keepTransmission(services, channel, kept);
            },
          );
        }
      } catch (error) {
        log.error({ err: error, take: take.base }, 'a transmission recorded by the media server was not kept');
      } finally {
        await removeFiles();
      }
    },
  };
}

export type Takes = ReturnType<typeof takes>;
