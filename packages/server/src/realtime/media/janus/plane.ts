/**
 * Channels through a media server: Janus's AudioBridge (issue 26). Browsers never speak to Janus's API: this
 * server holds the Janus sessions and handles and relays each browser's SDP and candidates over the socket
 * (`media_offer`, `media_candidate`), so that the token and `may()` guard everything and only media (RTP, or
 * TURN) reaches Janus from browsers.
 *
 * - One AudioBridge room per channel (room id: the channel's id), created on demand when a participant
 *   offers and destroyed when the last one leaves (each room runs a mixer thread). Several app instances put
 *   a channel's pages in the same room: its id is the channel's, and the Janus of a channel is chosen by its id.
 * - Every participant joins muted: the floor is enforced in Janus. A grant unmutes the holder (and starts
 *   recording it), a release, revoke, timeout or preemption mutes it again; a browser that enables its own
 *   track without the floor is not heard. A listener gets the room's mix on its one connection, whoever talks.
 * - The participant's handle lives on the instance that holds its socket; a floor change decided elsewhere
 *   reaches it through `relay` (between instances) and `apply`.
 * - Janus lost (killed, restarting): every participant is told (`media_reset`) and offers again until Janus
 *   answers; the rooms are made again on demand.
 */
import { MediaCandidate, MediaOffer } from '@talkgroup/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Concern } from '../../context.ts';
import { parse, SocketInputError } from '../../socket-tasks.ts';
import { type ChannelMedia, channelRegistry, type MediaParticipant, type ServerPlane } from '../plane.ts';
import {
  JanusConnection,
  type JanusHandle,
  JanusPluginError,
  JanusSession,
  JanusUnavailableError,
} from './connection.ts';
import type { Take, Takes } from './takes.ts';

const AUDIOBRIDGE = 'janus.plugin.audiobridge';
/** AudioBridge's error codes (janus_audiobridge.c). */
const NO_SUCH_ROOM = 485;
const ROOM_EXISTS = 486;
const ALREADY_JOINED = 491;
/**
 * Packets a participant's decoder buffers before mixing (Janus's default is 6: 120 ms): push-to-talk wants the
 * first syllable out quickly; 2 packets still absorb a little jitter (bench:media measures press to sound).
 */
const PREBUFFER_PACKETS = 2;

interface Participant extends MediaParticipant {
  /** Janus's numeric id of the participant in the room. */
  janusId: number;
  handle?: JanusHandle;
  /** The handle's room, once joined. */
  joined: boolean;
  heard: boolean;
  take?: Take;
  off?: () => void;
}

export interface JanusPlaneOptions {
  urls: string[];
  apiSecret?: string;
  log: FastifyBaseLogger;
  takes: Takes;
  /** Tells a socket of this instance that its media link is gone (`media_reset`). */
  resetSocket: (socketId: string, channelId: number, reason: string) => void;
  /** Hands a floor change to the instance that holds the participant's socket. */
  relay: (channelId: number, socketId: string, heard: boolean) => void;
}

export function janusPlane(options: JanusPlaneOptions) {
  const { log } = options;
  /** One connection (and session, and control handle) per Janus instance. */
  const backends = options.urls.map((url) => {
    const backend = {
      url,
      session: undefined as Promise<{ session: JanusSession; control: JanusHandle }> | undefined,
      connection: new JanusConnection({
        url,
        apiSecret: options.apiSecret,
        log,
        onUp: () => {},
        onDown: () => {
          backend.session = undefined;
          lost(backend.connection);
        },
      }),
    };
    backend.connection.start();
    return backend;
  });
  const backendOf = (channelId: number) => backends[channelId % backends.length];

  async function sessionOf(channelId: number) {
    const backend = backendOf(channelId);
    backend.session ??= (async () => {
      const session = await JanusSession.create(backend.connection);
      return { session, control: await session.attach(AUDIOBRIDGE) };
    })();
    try {
      return await backend.session;
    } catch (error) {
      backend.session = undefined;
      throw error;
    }
  }

  const rooms = new Map<number, { participants: Map<string, Participant>; ready?: Promise<void> }>();

  /** The Janus of these channels went away: every participant's link with it is gone. */
  function lost(connection: JanusConnection): void {
    for (const [channelId, room] of rooms) {
      if (backendOf(channelId).connection !== connection) continue;
      room.ready = undefined;
      for (const participant of room.participants.values()) {
        participant.off?.();
        participant.handle = undefined;
        participant.joined = false;
        options.resetSocket(participant.socketId, channelId, 'The media server restarted: reconnecting the voice.');
      }
    }
  }

  async function ensureRoom(channelId: number): Promise<void> {
    const room = rooms.get(channelId);
    if (!room) throw new SocketInputError('join the channel first (join_room).');
    room.ready ??= (async () => {
      const { control } = await sessionOf(channelId);
      try {
        await control.message({
          request: 'create',
          room: channelId,
          is_private: true,
          sampling_rate: 48_000,
          audiolevel_ext: false,
          default_prebuffering: PREBUFFER_PACKETS,
        });
      } catch (error) {
        if (!(error instanceof JanusPluginError && error.code === ROOM_EXISTS)) throw error;
      }
    })();
    try {
      await room.ready;
    } catch (error) {
      room.ready = undefined;
      throw error;
    }
  }

  /** Destroys the room when nobody is in it (any instance's participants count). */
  async function destroyIfEmpty(channelId: number): Promise<void> {
    try {
      const { control } = await sessionOf(channelId);
      const listed = await control.message({ request: 'listparticipants', room: channelId });
      if (((listed.data.participants as unknown[]) ?? []).length > 0) return;
      await control.message({ request: 'destroy', room: channelId });
    } catch (error) {
      if (error instanceof JanusPluginError && error.code === NO_SUCH_ROOM) return;
      if (!(error instanceof JanusUnavailableError))
        log.warn({ err: error, channelId }, 'could not close a media room');
    }
  }

  /** Mutes or unmutes a participant of this instance in Janus; recording follows who is heard. */
  async function setHeard(channelId: number, participant: Participant, heard: boolean): Promise<void> {
    participant.heard = heard;
    if (!participant.handle || !participant.joined) return;
    if (heard) {
      participant.take = await options.takes.begin(channelId, participant.userId);
      await participant.handle.message({
        request: 'configure',
        muted: false,
        record: true,
        filename: participant.take.base,
      });
      return;
    }
    const take = participant.take;
    participant.take = undefined;
    await participant.handle.message({ request: 'configure', muted: true, record: false });
    if (take) void options.takes.finish(take);
  }

  async function leave(participant: Participant): Promise<void> {
    participant.off?.();
    const take = participant.take;
    participant.take = undefined;
    if (participant.handle) {
      await participant.handle.message({ request: 'leave' }).catch(() => {});
      await participant.handle.detach();
      participant.handle = undefined;
    }
    if (take) void options.takes.finish(take);
  }

  const registry = channelRegistry((channelId, closed): ChannelMedia => {
    const room = { participants: new Map<string, Participant>() };
    rooms.set(channelId, room);
    const apply = async (socketId: string, heard: boolean) => {
      const participant = room.participants.get(socketId);
      if (participant) await setHeard(channelId, participant, heard);
      else options.relay(channelId, socketId, heard);
    };
    return {
      channelId,
      kind: 'server',
      async admit(participant) {
        const known = room.participants.get(participant.socketId);
        if (known) {
          known.mode = participant.mode;
          return;
        }
        room.participants.set(participant.socketId, {
          ...participant,
          janusId: Math.floor(Math.random() * 2 ** 52) + 1,
          joined: false,
          heard: false,
        });
      },
      async remove(socketId) {
        const participant = room.participants.get(socketId);
        if (!participant) return;
        room.participants.delete(socketId);
        await leave(participant);
        if (room.participants.size === 0) {
          rooms.delete(channelId);
          closed();
          await destroyIfEmpty(channelId);
        }
      },
      grantTalk: (socketId) => apply(socketId, true),
      revokeTalk: (socketId) => apply(socketId, false),
      async close() {
        for (const participant of room.participants.values()) await leave(participant);
        room.participants.clear();
        rooms.delete(channelId);
        closed();
      },
    };
  });

  /** The browser's offer: joins the room (muted unless it holds the floor) and answers with Janus's SDP. */
  async function offer(channelId: number, socketId: string, sdp: string): Promise<string> {
    const participant = rooms.get(channelId)?.participants.get(socketId);
    if (!participant) throw new SocketInputError('media_offer: join the channel first (join_room).');
    await ensureRoom(channelId);
    if (!participant.handle) {
      const { session } = await sessionOf(channelId);
      const handle = await session.attach(AUDIOBRIDGE);
      participant.handle = handle;
      participant.off = handle.onEvent((message) => {
        // The browser's connection failed or closed: it offers again (a new handle) when it comes back.
        if (message.janus === 'hangup' && participant.handle === handle) {
          participant.joined = false;
          options.resetSocket(socketId, channelId, 'The voice link with the media server was lost.');
        }
      });
    }
    const handle = participant.handle;
    if (!participant.joined) {
      try {
        await handle.message({
          request: 'join',
          room: channelId,
          id: participant.janusId,
          display: participant.name,
          muted: true,
          prebuffer: PREBUFFER_PACKETS,
        });
      } catch (error) {
        // Still in the room from before its connection dropped: it only needs a new negotiation.
        if (!(error instanceof JanusPluginError && error.code === ALREADY_JOINED)) throw error;
      }
      participant.joined = true;
    }
    const answer = await handle.message({ request: 'configure', muted: !participant.heard }, { type: 'offer', sdp });
    if (!answer.jsep?.sdp) throw new Error('the media server sent no answer to the offer');
    return answer.jsep.sdp;
  }

  const concern: Concern = (socket, scope) => {
    scope.answer('media_offer', async (payload) => {
      const { room, sdp } = parse(MediaOffer, payload, 'media_offer');
      const at = scope.requireRoom('media_offer', room);
      try {
        return { success: true, sdp: await offer(at.channelId, socket.id, sdp) };
      } catch (error) {
        if (error instanceof JanusUnavailableError)
          throw new SocketInputError('media_offer: the media server is not reachable: the voice comes back by itself.');
        throw error;
      }
    });
    scope.on('media_candidate', async (payload) => {
      const { room, candidate } = parse(MediaCandidate, payload, 'media_candidate');
      const at = scope.requireRoom('media_candidate', room);
      const handle = rooms.get(at.channelId)?.participants.get(socket.id)?.handle;
      // Candidates that arrive before the offer's answer or after a reset are of no use: the next offer has its own.
      await handle?.trickle(candidate).catch(() => {});
    });
  };

  const plane: ServerPlane = {
    kind: 'server',
    concern,
    ...registry,
    async stop() {
      await registry.stop();
      await Promise.all(backends.map((backend) => backend.connection.stop()));
    },
    /** A floor change relayed by another instance: applied if this one holds the participant. */
    async apply(channelId, socketId, heard) {
      const participant = rooms.get(channelId)?.participants.get(socketId);
      if (participant) await setHeard(channelId, participant, heard);
    },
  };
  return plane;
}

export type JanusPlane = ReturnType<typeof janusPlane>;
