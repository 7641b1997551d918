/**
 * Push-to-talk, whichever way it arrives (a socket's press, an emergency's open microphone, an all call, the
 * spec's HTTP mic-state call): a press is refused or allowed by policy.ts, goes through the floor of its
 * channel (grants.ts), is shown to the room at once and passed to the media plane (which lets the holder be
 * heard or silences it), and is kept afterwards as talk bursts (naming the grant) and channel_talk entries.
 */
import { randomUUID } from 'node:crypto';
import type { FloorAnswer, MediaKind, ParticipationMode } from '@talkgroup/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { ActivityStore } from '../activities/store.ts';
import type { ChannelSummary } from '../channels/store.ts';
import type { EventBus } from '../events.ts';
import type { PresenceStore } from '../presence/store.ts';
import type { Floor, FloorOutcome, TakeOptions, Talker } from './grants.ts';
import { asksFloor, pressRefusal } from './policy.ts';
import type { TalkBurstStore } from './talk-bursts.ts';

export type { Talker } from './grants.ts';

/** Where: a channel the talker is in, how, and whether its rights let it talk there. */
export interface TalkPlace {
  channelId: number;
  /** The channel's room key (rtcSession). */
  room: string;
  mode: ParticipationMode;
  mayTalk: boolean;
}

/** A mic that went on or off in a channel: shown at once, kept afterwards. */
export interface MicChange {
  userId: number;
  name: string;
  channel: Pick<ChannelSummary, 'id' | 'name' | 'rtcSession'>;
  /** The socket that talks, or '' when the change came over HTTP from a user without a socket there. */
  socketId: string;
  on: boolean;
  /** A mic on: the grant it talks under (its talk burst keeps it). */
  grantId?: string;
  /** A mic an SOS opened, not the talker's own press (issue 69: it answers no lone-worker check). */
  emergency?: boolean;
}

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
  endTalkOnLeave(talker: Talker, at: Pick<TalkPlace, 'room' | 'channelId'>): Promise<void>;
}

/** The longest a grant waits for the media server to unmute its holder. */
const UNMUTE_WAIT_MS = 200;

/** What the talk uses: the floor, the stores it keeps bursts in, and the socket layer's ports (context.ts). */
export interface TalkDeps {
  services: {
    activities: Pick<ActivityStore, 'record'>;
    events: Pick<EventBus, 'emit'>;
    presence: Pick<PresenceStore, 'setMicState'>;
    talkBursts: TalkBurstStore;
  };
  floor: Floor;
  /** Lets a socket be heard on its channel's media plane or silences it; how the channel's voice goes. */
  media: {
    heard(channelId: number, socketId: string, heard: boolean): Promise<void>;
    kindOf(channel: Pick<ChannelSummary, 'voiceMode'>): MediaKind;
  };
  channelCache: { get(channelId: number): Promise<ChannelSummary | undefined> };
  /** Tells a channel's room and lobby that a mic went on or off (onMicStateChanged). */
  showMic(room: string, channelId: number, change: Pick<MicChange, 'socketId' | 'userId' | 'name' | 'on'>): void;
  /** The error a refused call gets (the socket layer's, so that the client reads the sentence). */
  refusal(sentence: string): Error;
  log: FastifyBaseLogger;
}

export function talkCore(deps: TalkDeps): Talk {
  const { services, floor, media, channelCache, log } = deps;

  /**
   * Tells the room (and the channel lists) that a mic went on or off, and the media plane who is heard;
   * resolves once the media plane has applied it (never rejects).
   */
  function announce(change: MicChange): Promise<void> {
    const { channel } = change;
    deps.showMic(channel.rtcSession, channel.id, change);
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
      await services.talkBursts.start(change.userId, channel, current ? media.kindOf(current) : 'mesh', change.grantId);
      services.events.emit('transmissionStarted', {
        channel: { id: channel.id, name: channel.name, hidden: current?.hidden ?? false },
        userId: change.userId,
        name: change.name,
        ...(change.emergency ? { emergency: true } : {}),
      });
    } else await endBurst(change.userId, channel.id);
    await services.presence.setMicState(change.userId, channel.id, on);
  }

  async function channelOf(channelId: number): Promise<ChannelSummary> {
    const channel = await channelCache.get(channelId);
    if (!channel) throw deps.refusal('This channel no longer exists.');
    return channel;
  }

  const own = (talker: Talker, channel: ChannelSummary, on: boolean, grantId?: string): MicChange => ({
    userId: talker.userId,
    name: talker.name,
    channel,
    socketId: talker.socketId,
    on,
    ...(grantId ? { grantId } : {}),
  });

  const talk: Talk = {
    async press(talker, at, options = {}) {
      const channel = await channelOf(at.channelId);
      const refused = pressRefusal(at, options.emergency);
      if (refused) return { answer: { granted: false, reason: refused }, changes: [] };
      // An open conference grants without asking the holders; its grant has an id all the same.
      const grantId = options.grantId ?? randomUUID();
      // Issue 59: the channel says whether a refused press waits (a socket's only) and whether priority breaks in.
      const rule = { interrupt: channel.preemption !== 'queue', queue: options.queue === true && channel.floorQueue };
      const outcome: FloorOutcome = asksFloor(channel)
        ? await floor.take(talker, at.room, at.channelId, { ...options, grantId, ...rule })
        : { answer: { granted: true, grantId } };
      if (!outcome.answer.granted) return { answer: outcome.answer, changes: [] };
      const holder = {
        ...own(talker, channel, true, outcome.answer.grantId),
        ...(options.emergency ? { emergency: true } : {}),
      };
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
      deps.showMic(at.room, at.channelId, { ...talker, on: false });
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
