/**
 * Live video through the media server (issue 61 item 3; docs/api.md "Live video"): with JANUS_URL a stream goes
 * through a VideoRoom room of its channel's own (made on demand, apart from the channel's voice rooms, with a
 * secret and a pin of its own: secrets.ts), never peer to peer. Browsers never speak to Janus's API: this server
 * holds the handles and relays the SDP over the socket, so that only a viewer `live.ts` let watch is subscribed.
 *
 * - The sharing page publishes its camera once, with simulcast (two layers, rids `h` and `l` in that order: Janus
 *   takes the first rid as the highest, so substream 0 is `l` and 1 is `h`); nothing is sent to it per viewer,
 *   hence no cap on the viewers.
 * - Each viewer's page gets a subscription of its own, on its own instance: the publisher's id is derived from the
 *   stream's id, so any instance subscribes without asking the sharer's. A tile takes the low layer, the full
 *   view the high one (`layer`).
 * - Where the channel records, Janus records the publisher (`record`, in JANUS_RECORDINGS_DIR as voice takes);
 *   at the stream's end the .mjr becomes WebM (janus-pp-rec) and is kept as the mesh's uploads are (store.ts),
 *   so the channel's history lists it, with its SHA-256. The sharing page uploads nothing then: its upload is
 *   refused, before, during and after the conversion (issue 69: the stream's row says from its start that the
 *   server records it).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { VideoLayer } from '@talkgroup/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { candidateFor } from '../janus/assignments.ts';
import { type JanusBackend, type JanusBackends, VIDEOROOM } from '../janus/backends.ts';
import { type JanusHandle, JanusPluginError, JanusUnavailableError } from '../janus/connection.ts';
import { exists, NO_SUCH_SFU_ROOM, SFU_ROOM_EXISTS } from '../janus/room-requests.ts';
import type { JanusKeys } from '../janus/secrets.ts';
import { SocketInputError } from '../sockets/errors.ts';
import type { JanusStream } from '../sockets/io.ts';
import { sha256Of, type VideoStore } from './store.ts';

const run = promisify(execFile);

/** The video rooms' ids: far above any channel id, which the channel's voice room uses as its own. */
export const VIDEO_ROOM_BASE = 1_000_000_000_000;
export const videoRoomOf = (channelId: number) => VIDEO_ROOM_BASE + Math.trunc(channelId);
/** VideoRoom's "no such feed" (janus_videoroom.c): the publisher's connection is not up yet. */
const NO_SUCH_FEED = 428;
/** How long a viewer's subscription waits for the sharer's connection to come up (VIDEO_PUBLISHER_WAIT_SECONDS). */
export const PUBLISHER_WAIT_MS = 20_000;
const SUBSTREAM: Record<VideoLayer, number> = { low: 0, high: 1 };
/** What a sharer sends: one camera, a few viewers' worth of layers (REMB cap of the room). */
const PUBLISHER_BITRATE = 2_000_000;
/** A room holds every stream of its channel at once (a sharer's page has one there). */
const MAX_PUBLISHERS = 100;

/** The publisher's id in its room, the same on every instance. */
export function publisherIdOf(streamId: string): number {
  return Number.parseInt(createHash('sha256').update(streamId).digest('hex').slice(0, 13), 16) + 1;
}

/** What this part needs of a live stream. */
export type { JanusStream };

interface Publication {
  url: string;
  handle: JanusHandle;
  secret: string;
  /** The recording's base name (Janus adds `-video-<mindex>.mjr`), where the channel records. */
  recording?: string;
}

interface Subscription {
  url: string;
  handle: JanusHandle;
  /** The video's mid in Janus's offer to the viewer (its layer is chosen by it). */
  mid: string;
}

/** The mid of the first video section of a description. */
function videoMid(sdp: string): string | undefined {
  for (const section of sdp.split(/\r?\n(?=m=)/).slice(1))
    if (section.startsWith('m=video')) return /^a=mid:(\S+)/m.exec(section)?.[1];
  return undefined;
}

/** The sharer's connection to Janus did not come up in time: the viewer is told, and may try again. */
export class PublisherMissingError extends Error {}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What Janus refused of a page's description or candidate (a bad SDP: a hostile page's, or a browser's Janus cannot
 * take), or a Janus that does not answer now, ends that call with a sentence; anything else is the server's.
 */
export function refusedByJanus(event: string) {
  return (error: unknown): never => {
    if (error instanceof JanusPluginError)
      throw new SocketInputError(`${event}: the media server refused it (${error.message || error.code}).`);
    // Janus lost meanwhile: the stream ends on its own (onLost); the page is told why this call failed.
    if (error instanceof JanusUnavailableError) throw new SocketInputError(`${event}: ${error.message}`);
    throw error;
  };
}

export interface JanusVideoDeps {
  backends: JanusBackends;
  keys: JanusKeys;
  /** Where Janus writes its recordings (JANUS_RECORDINGS_DIR, shared with it). */
  recordingsDir: string;
  recordings: VideoStore;
  log: FastifyBaseLogger;
  /** How long a viewer's subscription waits for the sharer's connection (PUBLISHER_WAIT_MS by default). */
  publisherWaitMs?: number;
  /** Listens to the loss of a Janus (its sessions, handles and rooms gone with it); returns the unlistening. */
  onBackendDown?: (listener: (backend: JanusBackend) => void) => () => void;
}

export function janusVideo(deps: JanusVideoDeps) {
  const { backends, keys, log } = deps;
  const publications = new Map<string, Publication>();
  const subscriptions = new Map<string, Subscription>();
  const subscriptionKey = (streamId: string, socketId: string) => `${streamId}\n${socketId}`;

  function backendOf(stream: JanusStream): JanusBackend {
    const backend = stream.janusUrl ? backends.byUrl(stream.janusUrl) : undefined;
    if (!backend?.up) throw new JanusUnavailableError('The media server is not reachable now.');
    return backend;
  }

  async function ensureRoom(backend: JanusBackend, channelId: number): Promise<void> {
    const { videoroom } = await backend.control();
    await videoroom
      .message({
        request: 'create',
        room: videoRoomOf(channelId),
        ...keys.admin,
        secret: keys.videoSecret(channelId),
        pin: keys.videoPin(channelId),
        is_private: true,
        publishers: MAX_PUBLISHERS,
        videocodec: 'vp8',
        bitrate: PUBLISHER_BITRATE,
        // A viewer that asks for the high layer gets a keyframe at once, not at the sharer's next one.
        fir_freq: 10,
        audiolevel_ext: false,
        // Only Talkgroup turns a publisher's recording on (with the room's secret).
        lock_record: true,
        notify_joining: false,
      })
      .catch(exists(SFU_ROOM_EXISTS));
  }

  async function subscribeOnce(handle: JanusHandle, stream: JanusStream): Promise<string> {
    const deadline = Date.now() + (deps.publisherWaitMs ?? PUBLISHER_WAIT_MS);
    for (;;) {
      try {
        const offered = await handle.message({
          request: 'join',
          ptype: 'subscriber',
          room: videoRoomOf(stream.channelId),
          pin: keys.videoPin(stream.channelId),
          streams: [{ feed: publisherIdOf(stream.streamId) }],
        });
        if (!offered.jsep?.sdp) throw new Error('the media server sent no offer for the video');
        return offered.jsep.sdp;
      } catch (error) {
        // No room yet (the sharer's offer not in), or no feed yet (its connection not up): it comes in a moment.
        const early = error instanceof JanusPluginError && [NO_SUCH_FEED, NO_SUCH_SFU_ROOM].includes(error.code);
        if (!early) throw error;
        if (Date.now() > deadline)
          throw new PublisherMissingError(`no video of stream ${stream.streamId} reached the media server in time`);
        await pause(300);
      }
    }
  }

  const notKept = (stream: JanusStream) => (error: unknown) =>
    log.error({ err: error, streamId: stream.streamId }, 'a live video recorded by the media server was not kept');

  /** The channel's video room goes with its last publisher (made again by the next stream). */
  async function destroyIfEmpty(stream: JanusStream): Promise<void> {
    const backend = backendOf(stream);
    const { videoroom } = await backend.control();
    const room = videoRoomOf(stream.channelId);
    const listed = await videoroom.message({ request: 'listparticipants', room });
    if (((listed.data.participants as unknown[] | undefined) ?? []).length > 0) return;
    await videoroom
      .message({ request: 'destroy', room, secret: keys.videoSecret(stream.channelId) })
      .catch(exists(NO_SUCH_SFU_ROOM));
  }

  /** Converts the publisher's recording and keeps it in the channel's history; its files go in any case. */
  async function keepRecording(base: string, stream: JanusStream, endedAt: Date): Promise<void> {
    const folder = path.dirname(base);
    const prefix = `${path.basename(base)}-video`;
    const mjrs = (await readdir(folder)).filter((name) => name.startsWith(prefix) && name.endsWith('.mjr'));
    const webm = `${base}.webm`;
    let temporary: string | undefined;
    try {
      const [mjr] = mjrs;
      if (!mjr) throw new Error(`the media server wrote no video recording for ${base}`);
      await run('janus-pp-rec', [path.join(folder, mjr), webm], { timeout: 300_000 });
      const row = await deps.recordings.byStream(stream.streamId);
      if (!row) return;
      temporary = await deps.recordings.temporary();
      await copyFile(webm, temporary);
      const { size } = await stat(temporary);
      if (size === 0) throw new Error(`janus-pp-rec wrote an empty file from ${mjr}`);
      const durationMs = Math.max(1, endedAt.getTime() - Date.parse(stream.startedAt));
      const sha256 = await sha256Of(temporary);
      await deps.recordings.keep(row, { temporary, size, sha256, durationMs, endedAt, source: 'server' });
    } finally {
      const files = [...mjrs.map((name) => path.join(folder, name)), webm, ...(temporary ? [temporary] : [])];
      await Promise.all(files.map((file) => rm(file, { force: true })));
    }
  }

  /** The streams shared from here through a Janus that was lost (their publishers are gone with it). */
  const lostListeners = new Set<(streamId: string) => void>();
  const orphans = new Map<string, string>();
  const unlisten = deps.onBackendDown?.((backend) => {
    for (const [key, subscription] of [...subscriptions])
      if (subscription.url === backend.url) subscriptions.delete(key);
    for (const [streamId, publication] of [...publications])
      if (publication.url === backend.url) {
        publications.delete(streamId);
        // What Janus wrote until then is still kept at the stream's end.
        if (publication.recording) orphans.set(streamId, publication.recording);
        for (const listener of lostListeners) listener(streamId);
      }
  });

  return {
    /**
     * Hears of each stream shared from here whose Janus was lost, or whose sharer's connection to Janus is over:
     * nothing of it reaches anyone any more.
     */
    onLost(listener: (streamId: string) => void): void {
      lostListeners.add(listener);
    },

    close(): void {
      unlisten?.();
      lostListeners.clear();
    },

    /**
     * The Janus a new stream goes through: the one the channel's voice ranks first among those that answer
     * (assignments.ts), so that a channel's video and voice share a Janus; undefined when none answers (the stream
     * goes peer to peer).
     */
    pick(channelId: number): string | undefined {
      return candidateFor(
        channelId,
        backends.alive().map((backend) => backend.url),
      );
    },

    /** The sharer's offer (its camera, simulcast): published in the channel's video room; Janus's answer. */
    async publish(stream: JanusStream, sdp: string, record: boolean): Promise<string> {
      if (publications.has(stream.streamId)) throw new Error('this stream is already published');
      const backend = backendOf(stream);
      await ensureRoom(backend, stream.channelId);
      const { session } = await backend.control();
      const handle = await session.attach(VIDEOROOM);
      const secret = keys.videoSecret(stream.channelId);
      const publication: Publication = { url: backend.url, handle, secret };
      publications.set(stream.streamId, publication);
      // The sharer's connection to Janus is over (its page closed it, or its network is gone for good): nothing
      // reaches the viewers any more, so the stream ends.
      handle.onEvent((message) => {
        if (message.janus !== 'hangup' || publications.get(stream.streamId) !== publication) return;
        for (const listener of lostListeners) listener(stream.streamId);
      });
      const join = () =>
        handle.message(
          {
            request: 'joinandconfigure',
            ptype: 'publisher',
            room: videoRoomOf(stream.channelId),
            pin: keys.videoPin(stream.channelId),
            id: publisherIdOf(stream.streamId),
            display: stream.name,
            audio: false,
            videocodec: 'vp8',
          },
          { type: 'offer', sdp },
        );
      try {
        // The room destroyed by the end of the channel's last stream a moment ago (on any instance): made again.
        const answer = await join().catch(async (error) => {
          if (!(error instanceof JanusPluginError && error.code === NO_SUCH_SFU_ROOM)) throw error;
          await ensureRoom(backend, stream.channelId);
          return join();
        });
        if (!answer.jsep?.sdp) throw new Error('the media server sent no answer to the video offer');
        if (record) {
          await mkdir(deps.recordingsDir, { recursive: true, mode: 0o777 });
          const base = path.join(deps.recordingsDir, `video-${Math.trunc(stream.channelId)}-${stream.streamId}`);
          await handle.message({ request: 'configure', secret, record: true, filename: base });
          publication.recording = base;
        }
        return answer.jsep.sdp;
      } catch (error) {
        publications.delete(stream.streamId);
        await handle.detach();
        throw error;
      }
    },

    /** A viewer's subscription (made anew if it had one): Janus's offer for its page, on the low layer. */
    async subscribe(stream: JanusStream, socketId: string): Promise<string> {
      const backend = backendOf(stream);
      const key = subscriptionKey(stream.streamId, socketId);
      const before = subscriptions.get(key);
      subscriptions.delete(key);
      await before?.handle.detach();
      const { session } = await backend.control();
      const handle = await session.attach(VIDEOROOM);
      try {
        const offer = await subscribeOnce(handle, stream);
        const mid = videoMid(offer);
        if (!mid) throw new Error('the media server offered no video');
        await handle.message({ request: 'configure', streams: [{ mid, substream: SUBSTREAM.low }] });
        subscriptions.set(key, { url: backend.url, handle, mid });
        return offer;
      } catch (error) {
        await handle.detach();
        throw error;
      }
    },

    /** The viewer's answer to Janus's offer starts its video; false when it has no subscription here. */
    async answer(streamId: string, socketId: string, sdp: string): Promise<boolean> {
      const subscription = subscriptions.get(subscriptionKey(streamId, socketId));
      if (!subscription) return false;
      await subscription.handle.message({ request: 'start' }, { type: 'answer', sdp });
      return true;
    },

    async layer(streamId: string, socketId: string, layer: VideoLayer): Promise<boolean> {
      const subscription = subscriptions.get(subscriptionKey(streamId, socketId));
      if (!subscription) return false;
      const substream = SUBSTREAM[layer];
      await subscription.handle.message({ request: 'configure', streams: [{ mid: subscription.mid, substream }] });
      return true;
    },

    /** A candidate of the sharer's connection or of a viewer's; false when this socket has neither here. */
    async trickle(streamId: string, socketId: string, sharer: boolean, candidate: unknown): Promise<boolean> {
      const handle = sharer
        ? publications.get(streamId)?.handle
        : subscriptions.get(subscriptionKey(streamId, socketId))?.handle;
      if (!handle) return false;
      await handle.trickle(candidate);
      return true;
    },

    async unsubscribe(streamId: string, socketId: string): Promise<void> {
      const key = subscriptionKey(streamId, socketId);
      const subscription = subscriptions.get(key);
      subscriptions.delete(key);
      await subscription?.handle.detach();
    },

    /** The stream ended: its subscriptions here go, its publisher leaves (its recording closed, then kept). */
    async ended(stream: JanusStream, endedAt: Date): Promise<void> {
      for (const [key, subscription] of [...subscriptions])
        if (key.startsWith(`${stream.streamId}\n`)) {
          subscriptions.delete(key);
          await subscription.handle.detach();
        }
      const orphan = orphans.get(stream.streamId);
      orphans.delete(stream.streamId);
      if (orphan) await keepRecording(orphan, stream, endedAt).catch(notKept(stream));
      const publication = publications.get(stream.streamId);
      if (!publication) return;
      publications.delete(stream.streamId);
      const { handle, secret, recording } = publication;
      // The configure's answer comes once Janus has closed the recording's files.
      if (recording) await handle.message({ request: 'configure', secret, record: false }).catch(() => undefined);
      await handle.message({ request: 'leave' }).catch(() => undefined);
      await handle.detach();
      await destroyIfEmpty(stream).catch((error) =>
        log.warn({ err: error, channelId: stream.channelId }, 'could not close a live video room'),
      );
      if (recording) await keepRecording(recording, stream, endedAt).catch(notKept(stream));
    },
  };
}

export type JanusVideo = ReturnType<typeof janusVideo>;
