/**
 * Live video's decisions (issue 61): a page starts a stream in one of its channels (refused for a listen-only
 * membership) and gets its streamId at once; its audience hears of its start and its end (audience.ts); a stream
 * ends when its sharer stops it, when the sharer's page leaves the channel or goes ('left'), or when the server
 * takes it (the page put out of the channel, its instance gone: 'closed'). Without a media server a viewer asks for
 * one of the VIDEO_MESH_MAX_VIEWERS places and the offer, answer and candidates pass only between the sharer's
 * socket and that viewer's. With a media server (JANUS_URL) the stream goes through Janus's VideoRoom instead
 * (janus-video.ts): the sharer publishes once (`publish`), each viewer the audience lets in gets a subscription of
 * its own (no cap), and the viewers' answers and candidates go to Janus. Streams and requests live in
 * live-store.ts (Redis with REDIS_URL): the pushes go through the Socket.IO adapter, to pages on any instance.
 * Video never touches the floor, nor the voice's rooms. Issue 69: a stream's row says from its start who records it
 * (the media server, or the sharing page); a start without consent is audited before it starts (requests.ts); a
 * viewer whose rights no longer let it watch is let go at once (`recheckViewer`, asked by real time's room guard).
 */
import { randomUUID } from 'node:crypto';
import {
  type LiveVideo,
  may,
  type ServerLanguage,
  type ServerMessageCode,
  VIDEO_MESH_MAX_VIEWERS,
  type VideoEndReason,
} from '@talkgroup/protocol';
import type { MembershipStore } from '../channels/membership.ts';
import type { ChannelSummary } from '../channels/summary.ts';
import { HttpError } from '../http/errors.ts';
import type { Faults } from '../process/faults.ts';
import { SocketInputError } from '../sockets/errors.ts';
import type { Io, Participation } from '../sockets/io.ts';
import { ADMINS_ROOM, userRoom } from '../sockets/room-names.ts';
import type { VideoAudienceRule, Watcher } from './audience.ts';
import type { JanusVideo } from './janus-video.ts';
import { janusStreamOf, subscribeViewer } from './janus-watch.ts';
import { liveSignals } from './live-signals.ts';
import type { LiveStream, LiveVideoStore } from './live-store.ts';
import type { VideoRequests } from './requests.ts';
import type { VideoStore } from './store.ts';

/** A socket that acts (its user and its id). */
export interface VideoParty extends Watcher {
  socketId: string;
  name: string;
  /** Its handshake's language: the sentences it is sent unasked (`video_unavailable`). */
  language?: ServerLanguage;
}

/** A refusal: its code (the sentence in the asker's language), params, and an HTTP-like status. */
export interface Refusal {
  refused: ServerMessageCode;
  status: number;
  params?: Record<string, string | number>;
}

/** How often an instance looks for streams whose sharer's instance is gone (with REDIS_URL). */
const SWEEP_MS = 15_000;

export interface LiveVideoDeps {
  io: Io;
  store: LiveVideoStore;
  recordings: VideoStore;
  audience: VideoAudienceRule;
  requests: VideoRequests;
  channels: { get(channelId: number): Promise<ChannelSummary | undefined> };
  memberships: Pick<MembershipStore, 'rights' | 'channelsWithRights'>;
  faults: Faults;
  instanceId: string;
  /** The live instances (with REDIS_URL; undefined alone: nobody else can hold a stream). */
  alive?: () => Promise<string[]>;
  /** The media server's video (JANUS_URL): streams go through it while one answers. */
  janus?: JanusVideo;
}

/** Through the media server a stream has no cap on its viewers (the store still takes a number). */
const UNCAPPED = Number.MAX_SAFE_INTEGER;

/** A refusal of the request's step (its audit row not written): the socket's answer. */
function refusalOf(error: unknown): Refusal {
  if (error instanceof HttpError) return { refused: error.code, status: error.statusCode, params: error.params };
  throw error;
}

export function liveVideos(deps: LiveVideoDeps) {
  const { io, store, audience } = deps;
  /** This instance's sockets and the streams they share or watch: a socket that goes ends or leaves them. */
  const sharing = new Map<string, Set<string>>();
  const watching = new Map<string, Set<string>>();
  let closing = false;
  const fault = (what: string) => (error: unknown) => deps.faults.fault('worker', error, { worker: `video ${what}` });
  const note = (index: Map<string, Set<string>>, socketId: string, streamId: string) =>
    index.set(socketId, (index.get(socketId) ?? new Set()).add(streamId));
  const unnote = (index: Map<string, Set<string>>, socketId: string, streamId: string) => {
    const ids = index.get(socketId);
    ids?.delete(streamId);
    if (ids?.size === 0) index.delete(socketId);
  };

  async function end(streamId: string, reason: VideoEndReason): Promise<LiveStream | undefined> {
    const stream = await store.remove(streamId);
    if (!stream) return undefined;
    unnote(sharing, stream.socketId, streamId);
    const endedAt = new Date();
    await deps.recordings.ended(streamId, endedAt).catch(fault('end'));
    // Its subscriptions and publisher leave Janus, here and on the other instances; its recording is kept meanwhile.
    if (stream.janusUrl) {
      void deps.janus?.ended(stream, endedAt).catch(fault('end'));
      if (deps.alive) io.serverSideEmit('videoEnded', janusStreamOf(stream), endedAt.toISOString());
    }
    // Its audience could not be read (the database away): its sharer's pages and the administrators still hear it.
    const rooms = await audience.rooms(stream).catch((error) => {
      fault('end')(error);
      return [ADMINS_ROOM, userRoom(stream.userId)];
    });
    const ended = { room: stream.room, channelId: stream.channelId, streamId, reason };
    io.to([...rooms, ...stream.viewers.map((v) => v.socketId)]).emit('video_ended', ended);
    return stream;
  }

  /** May this watcher see the stream, by the channel's audience now and the watcher's membership? */
  async function mayWatch(watcher: Watcher, stream: LiveStream): Promise<boolean> {
    if (stream.hidden || watcher.userId === stream.userId || may(watcher, null, 'channel.videoWatch'))
      return audience.mayWatch(watcher, stream, undefined, undefined);
    const [channel, rights] = await Promise.all([
      deps.channels.get(stream.channelId),
      deps.memberships.rights(stream.channelId, watcher.userId),
    ]);
    return audience.mayWatch(watcher, stream, channel, rights);
  }

  const toLive = (stream: LiveStream): LiveVideo => ({
    streamId: stream.streamId,
    channelId: stream.channelId,
    room: stream.room,
    userId: stream.userId,
    name: stream.name,
    startedAt: stream.startedAt,
    viewers: stream.viewers.length,
    maxViewers: stream.janusUrl ? null : VIDEO_MESH_MAX_VIEWERS,
    via: stream.janusUrl ? 'server' : 'mesh',
  });

  /**
   * Ends the streams of instances that are gone: missing from the live instances at two sweeps in a row, so that a
   * registry that is a moment behind (Redis back from a restart, an instance's first beat) ends nothing.
   */
  let missing = new Set<string>();
  async function sweepGone(): Promise<void> {
    if (!deps.alive) return;
    const alive = new Set(await deps.alive());
    const gone = (await store.all()).filter((stream) => !alive.has(stream.instanceId));
    const before = missing;
    missing = new Set(gone.map((stream) => stream.streamId));
    for (const stream of gone) if (before.has(stream.streamId)) await end(stream.streamId, 'closed');
  }
  /** A viewer left: its subscription goes (media server), or the sharer's page closes its connection (mesh). */
  function left(stream: LiveStream, viewerSocketId: string): void {
    const { streamId } = stream;
    if (stream.janusUrl) void deps.janus?.unsubscribe(streamId, viewerSocketId).catch(fault('unwatch'));
    else io.to(stream.socketId).emit('video_viewer_left', { streamId, viewerSocketId });
  }

  // A Janus lost, or a sharer's connection to it over: the stream ends (what Janus recorded of it is kept).
  deps.janus?.onLost((streamId) => void end(streamId, 'closed').catch(fault('janus lost')));
  if (deps.alive && deps.janus) {
    const janus = deps.janus;
    io.on('videoEnded', (stream, endedAt) => void janus.ended(stream, new Date(endedAt)).catch(fault('end')));
  }

  const sweeper = deps.alive ? setInterval(() => void sweepGone().catch(fault('sweep')), SWEEP_MS) : undefined;
  sweeper?.unref();

  return {
    ...liveSignals({ store, channels: deps.channels, janus: deps.janus }),
    maxViewers: VIDEO_MESH_MAX_VIEWERS,
    /** The dispatchers' requests (requests.ts). */
    requests: deps.requests,

    /**
     * Starts a stream from this socket in this channel of its (the same socket's stream there, if it has one):
     * written before it is answered, announced after. `requestId`: the dispatcher's request it answers.
     */
    async start(
      sharer: VideoParty,
      at: Participation,
      requestId: string | undefined,
    ): Promise<{ stream: LiveStream; announce: () => Promise<void> } | Refusal> {
      if (!may(sharer, { member: true, canTalk: at.mayTalk }, 'channel.videoShare'))
        return { refused: 'video_listen_only', status: 403 };
      // Already sharing here from this page: the same stream (answering a request with it, if one is named).
      let live: LiveStream | undefined;
      for (const streamId of sharing.get(sharer.socketId) ?? []) {
        const stream = await store.get(streamId);
        if (stream?.channelId === at.channelId) live = stream;
      }
      const streamId = live?.streamId ?? randomUUID();
      const request = requestId
        ? await deps.requests.take(requestId, sharer.userId, at.channelId, streamId).catch(refusalOf)
        : undefined;
      if (request && 'refused' in request) return request;
      if (requestId && !request) return { refused: 'video_request_not_found', status: 404 };
      if (live) {
        const same = live;
        return { stream: same, announce: async () => request && deps.requests.started(request, same.streamId) };
      }
      const janusUrl = deps.janus?.pick(at.channelId);
      const stream: LiveStream = {
        streamId,
        channelId: at.channelId,
        room: at.room,
        hidden: at.hidden === true,
        userId: sharer.userId,
        name: sharer.name,
        socketId: sharer.socketId,
        instanceId: deps.instanceId,
        startedAt: new Date().toISOString(),
        ...(requestId ? { requestId } : {}),
        ...(janusUrl ? { janusUrl } : {}),
        viewers: [],
      };
      // Who records it, from its start: through the media server its recording is the server's alone (issue 69).
      await deps.recordings.started({
        ...stream,
        startedAt: new Date(stream.startedAt),
        withoutConsent: request?.withoutConsent,
        source: janusUrl ? 'server' : 'sharer',
      });
      await store.add(stream);
      note(sharing, sharer.socketId, stream.streamId);
      const announce = async () => {
        const { room, channelId, userId, name, startedAt } = stream;
        const started = { room, channelId, streamId, userId, name, startedAt, ...(requestId ? { requestId } : {}) };
        io.to(await audience.rooms(stream)).emit('video_started', started);
        if (request) await deps.requests.started(request, streamId);
      };
      return { stream, announce };
    },

    /** Its sharer stops it (from any of its pages); undefined when it is over or not theirs. */
    async stop(userId: number, streamId: string, room: string | undefined): Promise<LiveStream | undefined> {
      const stream = await store.get(streamId);
      if (!stream || stream.userId !== userId || (room !== undefined && room !== stream.room)) return undefined;
      return end(streamId, 'stopped');
    },

    end,

    async isLive(streamId: string): Promise<boolean> {
      return (await store.get(streamId)) !== undefined;
    },

    /** A viewer asks for a place: the sharer's page is told to offer it the stream. */
    async watch(viewer: VideoParty, streamId: string): Promise<{ stream: LiveStream } | Refusal> {
      const stream = await store.get(streamId);
      if (stream?.socketId === viewer.socketId)
        throw new SocketInputError('video_watch: this page shares this video itself.');
      // A private call's stream is as unknown to others as one that is over.
      if (!stream || (stream.hidden && !(await mayWatch(viewer, stream))))
        return { refused: 'video_not_found', status: 404 };
      if (!(await mayWatch(viewer, stream))) return { refused: 'video_not_audience', status: 403 };
      const { outcome, stream: now } = await store.watch(
        streamId,
        { socketId: viewer.socketId, userId: viewer.userId },
        stream.janusUrl ? UNCAPPED : VIDEO_MESH_MAX_VIEWERS,
      );
      if (outcome === 'gone' || !now) return { refused: 'video_not_found', status: 404 };
      if (outcome === 'full')
        return { refused: 'video_viewers_full', status: 409, params: { max: VIDEO_MESH_MAX_VIEWERS } };
      note(watching, viewer.socketId, streamId);
      const { socketId: viewerSocketId, userId, name } = viewer;
      // Not awaited: the subscription may wait for the sharer's connection, and the viewer's socket has more to do.
      if (now.janusUrl && deps.janus) {
        const forget = (socketId: string, id: string) => unnote(watching, socketId, id);
        const watch = { io, store, janus: deps.janus, forget };
        void subscribeViewer(watch, now, viewerSocketId, viewer.language).catch(fault('watch'));
      } else io.to(now.socketId).emit('video_viewer', { streamId, viewerSocketId, userId, name });
      return { stream: now };
    },

    /**
     * The rights of a socket's user changed (issue 69; real time's room guard asks for each of its sockets): each
     * stream it watches and may no longer watch lets it go at once: its place goes, its connection closes (the
     * sharer's page is told, or its Janus subscription is detached) and the socket is told `video_ended` with
     * `no_right`. The streams it let go.
     */
    async recheckViewer(viewer: Watcher & { socketId: string }): Promise<string[]> {
      const released: string[] = [];
      for (const streamId of [...(watching.get(viewer.socketId) ?? [])]) {
        const stream = await store.get(streamId);
        if (stream && (await mayWatch(viewer, stream))) continue;
        unnote(watching, viewer.socketId, streamId);
        const watched = stream && (await store.unwatch(streamId, viewer.socketId));
        if (!stream || !watched) continue;
        left(watched, viewer.socketId);
        const { room, channelId } = stream;
        io.to(viewer.socketId).emit('video_ended', { room, channelId, streamId, reason: 'no_right' });
        released.push(streamId);
      }
      return released;
    },

    /** The viewer leaves its place; the sharer's page closes that connection. */
    async unwatch(viewerSocketId: string, streamId: string): Promise<boolean> {
      unnote(watching, viewerSocketId, streamId);
      const stream = await store.unwatch(streamId, viewerSocketId);
      if (stream) left(stream, viewerSocketId);
      return stream !== undefined;
    },

    /** What is live now that this reader may watch (in one channel, or in any). */
    async list(reader: Watcher, channelId?: number): Promise<LiveVideo[]> {
      const streams = (await store.all()).filter((s) => channelId === undefined || s.channelId === channelId);
      const seen: LiveVideo[] = [];
      for (const stream of streams) if (await mayWatch(reader, stream)) seen.push(toLive(stream));
      return seen.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
    },

    /** The socket left a channel: its streams there end ('left'; 'closed' when it was put out). */
    async leftChannel(socketId: string, channelId: number, evicted: boolean): Promise<void> {
      for (const streamId of [...(sharing.get(socketId) ?? [])]) {
        const stream = await store.get(streamId);
        if (!stream) unnote(sharing, socketId, streamId);
        else if (stream.channelId === channelId) await end(streamId, evicted ? 'closed' : 'left');
      }
    },

    /** The socket went: its streams end, and it leaves the places it watched. */
    async socketGone(socketId: string): Promise<void> {
      // Shutting down: the streams stay for another instance's sweep to end once this one has left the registry.
      if (closing) return;
      const shared = [...(sharing.get(socketId) ?? [])];
      const watched = [...(watching.get(socketId) ?? [])];
      sharing.delete(socketId);
      watching.delete(socketId);
      for (const streamId of shared) await end(streamId, 'left');
      for (const streamId of watched) {
        const stream = await store.unwatch(streamId, socketId);
        if (stream) left(stream, socketId);
      }
    },

    sweepGone,

    close(): void {
      closing = true;
      if (sweeper) clearInterval(sweeper);
      deps.requests.close();
      deps.janus?.close();
    },
  };
}

export type LiveVideos = ReturnType<typeof liveVideos>;
export const isRefusal = (value: object): value is Refusal => 'refused' in value;
