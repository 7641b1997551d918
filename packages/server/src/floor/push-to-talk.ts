/**
 * Push-to-talk, whichever way it arrives (a socket's press, an emergency's open microphone, the spec's HTTP
 * mic-state call through legacy/): a press goes through the floor of its channel, a grant or a release is
 * shown to the room at once and passed to the media plane (which lets the holder be heard or silences it),
 * and is kept afterwards as talk bursts and channel_talk entries.
 */
import type { FloorAnswer } from '@talkgroup/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { ChannelSummary } from '../channels/store.ts';
import type { ChannelCache } from './channel-cache.ts';
import type { Floor, FloorOutcome, TakeOptions } from './floor.ts';
import type { EmitTo, MicChange, Participation, RealtimeServices, SocketData } from './io.ts';
import type { MediaPlanes } from './media/plane.ts';
import { channelRoom, lobbyRoom } from './room-names.ts';
import { SocketInputError } from './socket-tasks.ts';

/** Who presses: a socket's user (or, over HTTP, a user and the socket id that stands for it). */
export type Talker = Pick<SocketData, 'userId' | 'name' | 'role'> & { socketId: string };

/** Where: a channel the talker is in, how, and whether its rights let it talk there. */
export type TalkPlace = Pick<Participation, 'channelId' | 'room' | 'mode' | 'mayTalk'>;

export interface PressOutcome {
  answer: FloorAnswer;
  /** The mic changes a grant means (the preempted holder stops, the talker starts): shown already, to keep. */
  changes: MicChange[];
}

export interface Talk {
  /**
   * A press: refused to a listener (its mode, or its membership's rights) and while a holder of equal or
   * higher priority talks; granted, it is shown and handed to the media plane before this resolves.
   */
  press(talker: Talker, at: TalkPlace, options?: TakeOptions): Promise<PressOutcome>;
  /** A release: the floor is given back (if held) and the mic change shown; returns it, to keep. */
  release(talker: Talker, at: TalkPlace): Promise<MicChange>;
  /** Keeps mic changes already shown: talk bursts, channel_talk entries, presence's mic state. */
  record(changes: MicChange[]): Promise<void>;
  /** Shows and keeps a mic change (a holding that ran out). */
  changeMicState(change: MicChange): Promise<void>;
  /** Leaving while talking ends the burst; the others see the mic go off. */
  endTalkOnLeave(talker: Talker, at: Pick<Participation, 'room' | 'channelId'>): Promise<void>;
}

/** The longest a grant waits for the media server to unmute its holder. */
const UNMUTE_WAIT_MS = 200;

/** What the talk uses of the real-time context (context.ts gathers the talk with them). */
interface TalkDeps {
  services: RealtimeServices;
  emitTo: EmitTo;
  floor: Floor;
  media: MediaPlanes;
  channelCache: ChannelCache;
  log: FastifyBaseLogger;
}

export function talkCore(deps: TalkDeps): Talk {
  const { services, emitTo, floor, media, channelCache, log } = deps;

  /**
   * Tells the room (and the channel lists) that a mic went on or off, and the media plane who is heard;
   * resolves once the media plane has applied it (never rejects).
   */
  function announce(change: MicChange): Promise<void> {
    const { channel } = change;
    emitTo([channelRoom(channel.rtcSession), lobbyRoom(channel.id)], 'onMicStateChanged', {
      id: change.socketId,
      userId: change.userId,
      name: change.name,
      micState: change.on,
      room: channel.rtcSession,
    });
    if (!change.socketId) return Promise.resolve();
    return media
      .heard(channel.id, change.socketId, change.on)
      .catch((error) => log.error({ err: error, channelId: channel.id }, 'the media plane missed a floor change'));
  }

  /** A private call's talk is not logged: the call is (private_call). */
  const logged = async (channelId: number) => !(await channelCache.get(channelId))?.hidden;

  async function endBurst(userId: number, channelId: number): Promise<boolean> {
    const ended = await services.talkBursts.end(userId, channelId);
    if (!ended) return false;
    if (await logged(channelId))
      await services.activities.record('channel_talk', { userId, channelId, durationMs: ended.durationMs });
    return true;
  }

  async function recordOne(change: MicChange): Promise<void> {
    const { channel, on } = change;
    // The grant keeps how the voice went (the talker's browser records on the mesh, the media server otherwise).
    if (on) {
      const current = await channelCache.get(channel.id);
      await services.talkBursts.start(change.userId, channel, current ? media.kindOf(current) : 'mesh');
      services.events.emit('transmissionStarted', {
        channel: { id: channel.id, name: channel.name, hidden: current?.hidden ?? false },
        userId: change.userId,
        name: change.name,
      });
    } else await endBurst(change.userId, channel.id);
    await services.presence.setMicState(change.userId, channel.id, on);
  }

  async function channelOf(channelId: number): Promise<ChannelSummary> {
    const channel = await channelCache.get(channelId);
    if (!channel) throw new SocketInputError('This channel no longer exists.');
    return channel;
  }

  const own = (talker: Talker, channel: ChannelSummary, on: boolean): MicChange => ({
    userId: talker.userId,
    name: talker.name,
    channel,
    socketId: talker.socketId,
    on,
  });

  const talk: Talk = {
    async press(talker, at, options = {}) {
      const channel = await channelOf(at.channelId);
      // An emergency opens the sender's microphone whatever its mode or rights (issue 14).
      if (!options.emergency && (at.mode === 'listen' || !at.mayTalk))
        return { answer: { granted: false, reason: 'listen_only' }, changes: [] };
      // Floor control off (an open conference): everyone may talk, without asking the floor store.
      let outcome: FloorOutcome = { answer: { granted: true } };
      if (channel.floorControl) outcome = await floor.take(talker, at.room, at.channelId, options);
      if (!outcome.answer.granted) return { answer: outcome.answer, changes: [] };
      const holder = own(talker, channel, true);
      const changes = outcome.preempted ? [{ ...outcome.preempted, channel, on: false }, holder] : [holder];
      if (outcome.preempted) void announce(changes[0]);
      // The talker's browser starts sending when it gets the answer: a media server unmutes it first (a
      // millisecond or two on a local Janus), or its first words would be dropped there (bench:media: press to
      // sound about halved). A slow media server does not hold the grant back for long.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([announce(holder), new Promise((resolve) => (timer = setTimeout(resolve, UNMUTE_WAIT_MS)))]);
      clearTimeout(timer);
      return { answer: outcome.answer, changes };
    },

    async release(talker, at) {
      await floor.free(talker.socketId, at.room, at.channelId);
      const change = own(talker, await channelOf(at.channelId), false);
      void announce(change);
      return change;
    },

    async record(changes) {
      for (const change of changes) await recordOne(change);
    },

    async changeMicState(change) {
      void announce(change);
      await recordOne(change);
    },

    async endTalkOnLeave(talker, at) {
      const ended = await services.talkBursts.end(talker.userId, at.channelId);
      if (!ended) return;
      emitTo([channelRoom(at.room), lobbyRoom(at.channelId)], 'onMicStateChanged', {
        id: talker.socketId,
        userId: talker.userId,
        name: talker.name,
        micState: false,
        room: at.room,
      });
      await media.heard(at.channelId, talker.socketId, false);
      if (!(await logged(at.channelId))) return;
      await services.activities.record('channel_talk', {
        userId: talker.userId,
        channelId: at.channelId,
        durationMs: ended.durationMs,
      });
    },
  };
  return talk;
}
