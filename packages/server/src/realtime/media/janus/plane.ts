/**
 * Channels through a media server: Janus (issue 26). Browsers never speak to Janus's API: this server holds
 * the Janus sessions and handles and relays each browser's SDP over the socket (signalling.ts), so that the
 * token and `may()` guard everything and only media (RTP, or TURN) reaches Janus from browsers.
 *
 * - Each channel is carried by one Janus (assignments.ts: the same for every app instance), in an AudioBridge
 *   room made on demand and destroyed when nobody is left (rooms.ts).
 * - A page that may talk joins the room (it sends its microphone and hears the mix without its own voice);
 *   a page that only listens watches the channel's mountpoint (the mix, encoded once for all listeners).
 *   Either way one connection per channel, and a talker's change renegotiates nothing.
 * - Every participant joins muted: the floor is enforced in Janus. A grant unmutes the holder (and records
 *   it: takes.ts), a release, revoke, timeout or preemption mutes it again; a browser that enables its own
 *   track without the floor is not heard. Floor changes run in order per participant.
 * - The participant's handle lives on the instance that holds its socket; a floor change decided elsewhere
 *   reaches it through `relay` (between instances) and `apply`.
 * - A Janus lost (killed, hung, restarting) is noticed within seconds (connection.ts): its participants are
 *   told (`media_reset`) and offer again, to another Janus if one is alive; with none left the channels go
 *   peer to peer (plane.ts moves them) and come back once one answers again.
 */
import type { FastifyBaseLogger } from 'fastify';
import { type ChannelMedia, channelRegistry, type MediaParticipant, type ServerPlane } from '../plane.ts';
import { type AssignmentStore, candidateFor } from './assignments.ts';
import { AUDIOBRIDGE, type JanusBackend, janusBackends, STREAMING } from './backends.ts';
import { type JanusHandle, JanusPluginError, JanusUnavailableError } from './connection.ts';
import { janusPatches, type PatchList } from './patches.ts';
import { janusRooms, LOCAL_GROUP, NO_SUCH_ROOM, PREBUFFER_PACKETS } from './rooms.ts';
import { tuneAnswer } from './sdp.ts';
import { janusKeys } from './secrets.ts';
import { janusSignalling } from './signalling.ts';
import type { Take, Takes } from './takes.ts';

const ALREADY_JOINED = 491;
const NO_SUCH_MOUNTPOINT = 455;

/** The participant's connection with Janus: a room participant (talk) or a mountpoint's viewer (listen). */
interface Link {
  backend: JanusBackend;
  handle: JanusHandle;
  kind: 'bridge' | 'watch';
  off: () => void;
}

interface Participant extends MediaParticipant {
  channelId: number;
  heard: boolean;
  link?: Link;
  take?: Take;
  /** Its negotiations and floor changes, one after the other. */
  queue: Promise<unknown>;
}

export interface JanusPlaneOptions {
  urls: string[];
  apiSecret?: string;
  log: FastifyBaseLogger;
  takes: Takes;
  store: AssignmentStore;
  /** Tells a socket of this instance that its media link is gone (`media_reset`). */
  resetSocket: (socketId: string, channelId: number, reason: string) => void;
  /** Hands a floor change to the instance that holds the participant's socket. */
  relay: (channelId: number, socketId: string, heard: boolean) => void;
  /** This instance moved a channel to another Janus: the others drop their participants' old links. */
  moved: (channelId: number) => void;
  /** The patches in force (the dispatch console keeps them), applied again when rooms are made again. */
  activePatches?: PatchList;
  /** A patch made or ended here (null): the other instances learn it. */
  sharePatch?: (patchId: string, channelIds: number[] | null) => void;
}

const LOST = 'The media server restarted: reconnecting the voice.';

export function janusPlane(options: JanusPlaneOptions) {
  const { log, takes, store } = options;
  const availability = new Set<(available: boolean) => void>();
  let wasAvailable = false;
  const announce = () => {
    const now = backends.alive().length > 0;
    if (now === wasAvailable) return;
    wasAvailable = now;
    for (const listener of availability) listener(now);
  };
  const backends = janusBackends({
    urls: options.urls,
    apiSecret: options.apiSecret,
    log,
    onUp: () => {
      announce();
      patches.reapply();
    },
    onDown: (backend) => {
      rooms.forgetAll(backend);
      for (const participant of everyone())
        if (participant.link?.backend === backend) {
          void dropLink(participant, false);
          options.resetSocket(participant.socketId, participant.channelId, LOST);
        }
      announce();
    },
  });
  const keys = janusKeys(options.apiSecret);
  const rooms = janusRooms({ store, log, keys });
  /** This instance's participants, by channel then socket. */
  const channels = new Map<number, Map<string, Participant>>();
  /** The Janus each channel was last found on here. */
  const placed = new Map<number, string>();
  const everyone = () => [...channels.values()].flatMap((participants) => [...participants.values()]);
  const patches = janusPatches({ backends, rooms, store, log, keys, backendFor, activePatches: options.activePatches });

  /**
   * The channel's Janus, agreed with the other instances; participants still linked elsewhere start over (but
   * `offering`, whose new link is being made), and (unless `quiet`: told by another instance) the other
   * instances are told it moved.
   */
  async function backendFor(channelId: number, quiet = false, offering?: string): Promise<JanusBackend> {
    const alive = backends.alive().map((backend) => backend.url);
    const candidate = candidateFor(channelId, alive);
    if (!candidate) throw new JanusUnavailableError('No media server is reachable now.');
    const url = await store.assign(channelId, candidate, alive);
    const backend = backends.byUrl(url) ?? backends.alive()[0];
    const before = placed.get(channelId);
    placed.set(channelId, backend.url);
    if (before && before !== backend.url) {
      if (!quiet) options.moved(channelId);
      relink(channelId, backend, offering);
    }
    return backend;
  }

  /** Participants linked to another Janus than the channel's: they offer again. */
  function relink(channelId: number, backend: JanusBackend, offering?: string): void {
    for (const participant of channels.get(channelId)?.values() ?? [])
      if (participant.link && participant.link.backend !== backend && participant.socketId !== offering) {
        void dropLink(participant, true);
        options.resetSocket(participant.socketId, channelId, 'The channel moved to another media server.');
      }
  }

  function serial<T>(participant: Participant, work: () => Promise<T>): Promise<T> {
    const run = participant.queue.catch(() => {}).then(work);
    participant.queue = run;
    return run;
  }

  /**
   * Forgets the participant's link; `leave`: tells Janus too (it is still there). Resolves once Janus has let
   * the handle go (the take, if any, is finished after that, unawaited), so that whoever counts the room's
   * participants next does not count this one.
   */
  function dropLink(participant: Participant, leave: boolean): Promise<void> {
    const link = participant.link;
    if (!link) return Promise.resolve();
    participant.link = undefined;
    link.off();
    const take = participant.take;
    participant.take = undefined;
    const left = (async () => {
      if (leave && link.backend.up) {
        // A take in progress (its talker's page closed while it held the floor): Janus closes the file first.
        if (take) await link.handle.message({ request: 'configure', muted: true, record: false }).catch(() => {});
        if (link.kind === 'bridge') await link.handle.message({ request: 'leave' }).catch(() => {});
        await link.handle.detach().catch(() => {});
      }
    })();
    void left.then(async () => {
      if (take) await takes.finish(take);
    });
    return left;
  }

  /** A new handle for the participant on the channel's Janus, watched for Janus hanging it up. */
  async function attach(participant: Participant, backend: JanusBackend, kind: Link['kind']): Promise<Link> {
    void dropLink(participant, true);
    const { session } = await backend.control();
    const handle = await session.attach(kind === 'bridge' ? AUDIOBRIDGE : STREAMING);
    const link: Link = { backend, handle, kind, off: () => {} };
    link.off = handle.onEvent((message) => {
      const data = message.plugindata?.data;
      const gone = message.janus === 'hangup' || message.janus === 'detached' || data?.audiobridge === 'destroyed';
      if (!gone || participant.link !== link) return;
      void dropLink(participant, true);
      options.resetSocket(
        participant.socketId,
        participant.channelId,
        'The voice link with the media server was lost.',
      );
    });
    participant.link = link;
    return link;
  }

  /** Tries once more when another instance destroyed the room (or mountpoint) this one thought was there. */
  async function withRoom<T>(
    channelId: number,
    socketId: string,
    work: (backend: JanusBackend) => Promise<T>,
  ): Promise<T> {
    const backend = await backendFor(channelId, false, socketId);
    try {
      return await work(backend);
    } catch (error) {
      const gone = error instanceof JanusPluginError && [NO_SUCH_ROOM, NO_SUCH_MOUNTPOINT].includes(error.code);
      if (!gone) throw error;
      rooms.forget(backend, channelId);
      return work(backend);
    }
  }

  /** Unmutes (and records) or mutes the participant in its room. */
  async function applyHeard(participant: Participant): Promise<void> {
    const link = participant.link;
    if (link?.kind !== 'bridge') return;
    if (participant.heard && !participant.take) {
      const take = await takes.begin(participant.channelId, participant.userId);
      participant.take = take;
      await link.handle.message({ request: 'configure', muted: false, record: true, filename: take.base });
    } else if (!participant.heard) {
      const take = participant.take;
      participant.take = undefined;
      await link.handle.message({ request: 'configure', muted: true, record: false });
      if (take) void takes.finish(take);
    }
  }

  function participantOf(channelId: number, socketId: string): Participant | undefined {
    return channels.get(channelId)?.get(socketId);
  }

  const signalling = janusSignalling({
    /** A page that talks: joins the room (muted unless it holds the floor); Janus answers its offer. */
    offer: (channelId, socketId, sdp) => {
      const participant = participantOf(channelId, socketId);
      if (!participant) return undefined;
      return serial(participant, () =>
        withRoom(channelId, socketId, async (backend) => {
          await rooms.room(backend, channelId);
          const { handle } = await attach(participant, backend, 'bridge');
          await handle
            .message({
              request: 'join',
              room: channelId,
              pin: keys.roomPin(channelId),
              id: Math.floor(Math.random() * 2 ** 52) + 1,
              group: LOCAL_GROUP,
              display: participant.name,
              muted: true,
              prebuffer: PREBUFFER_PACKETS,
            })
            .catch((error) => {
              if (!(error instanceof JanusPluginError && error.code === ALREADY_JOINED)) throw error;
            });
          const answer = await handle.message({ request: 'configure', muted: true }, { type: 'offer', sdp });
          if (!answer.jsep?.sdp) throw new Error('the media server sent no answer to the offer');
          if (participant.heard) await applyHeard(participant);
          return tuneAnswer(answer.jsep.sdp);
        }),
      );
    },
    /** A page that listens: watches the channel's mountpoint; Janus offers. */
    watch: (channelId, socketId) => {
      const participant = participantOf(channelId, socketId);
      if (!participant) return undefined;
      return serial(participant, () =>
        withRoom(channelId, socketId, async (backend) => {
          await rooms.mountpoint(backend, channelId);
          const { handle } = await attach(participant, backend, 'watch');
          const offered = await handle.message({ request: 'watch', id: channelId, pin: keys.roomPin(channelId) });
          if (!offered.jsep?.sdp) throw new Error('the media server sent no offer for the channel');
          return offered.jsep.sdp;
        }),
      );
    },
    answer: (channelId, socketId, sdp) => {
      const participant = participantOf(channelId, socketId);
      if (!participant) return undefined;
      return serial(participant, async () => {
        const link = participant.link;
        if (link?.kind !== 'watch') return false;
        await link.handle.message({ request: 'start' }, { type: 'answer', sdp });
        return true;
      });
    },
    handleOf: (channelId, socketId) => participantOf(channelId, socketId)?.link?.handle,
  });

  const registry = channelRegistry((channelId, closed): ChannelMedia => {
    const participants = new Map<string, Participant>();
    channels.set(channelId, participants);
    const setHeard = async (socketId: string, heard: boolean) => {
      const participant = participants.get(socketId);
      if (!participant) return options.relay(channelId, socketId, heard);
      await serial(participant, async () => {
        participant.heard = heard;
        await applyHeard(participant);
      });
    };
    const forgetChannel = () => {
      if (channels.get(channelId) === participants) channels.delete(channelId);
      closed();
    };
    return {
      channelId,
      kind: 'server',
      async admit(participant) {
        const known = participants.get(participant.socketId);
        if (known) known.mode = participant.mode;
        else
          participants.set(participant.socketId, {
            ...participant,
            channelId,
            heard: participant.heard ?? false,
            queue: Promise.resolve(),
          });
      },
      async remove(socketId) {
        const participant = participants.get(socketId);
        if (!participant) return;
        participants.delete(socketId);
        await serial(participant, async () => dropLink(participant, true));
        if (participants.size > 0) return;
        forgetChannel();
        const backend = backends.byUrl(placed.get(channelId) ?? '');
        placed.delete(channelId);
        if (backend) await rooms.destroyIfUnused(backend, channelId, () => patches.holds(channelId));
      },
      grantTalk: (socketId) => setHeard(socketId, true),
      revokeTalk: (socketId) => setHeard(socketId, false),
      async close() {
        for (const participant of participants.values()) void dropLink(participant, true);
        participants.clear();
        forgetChannel();
      },
      participants: () =>
        [...participants.values()].map(({ socketId, userId, name, mode, heard }) => ({
          socketId,
          userId,
          name,
          mode,
          heard,
        })),
    };
  });

  const plane: ServerPlane = {
    kind: 'server',
    concern: signalling,
    ...registry,
    async stop() {
      patches.stop();
      await registry.stop();
      await backends.stop();
    },
    /** A floor change relayed by another instance: applied if this one holds the participant. */
    async apply(channelId, socketId, heard) {
      const participant = participantOf(channelId, socketId);
      if (!participant) return;
      await serial(participant, async () => {
        participant.heard = heard;
        await applyHeard(participant);
      });
    },
    available: () => backends.alive().length > 0,
    onAvailability(listener) {
      availability.add(listener);
      return () => availability.delete(listener);
    },
    async patch(patchId, channelIds) {
      options.sharePatch?.(patchId, channelIds);
      await patches.patch(patchId, channelIds);
    },
    async unpatch(patchId) {
      options.sharePatch?.(patchId, null);
      await patches.unpatch(patchId);
    },
  };
  return Object.assign(plane, {
    /** Resolves once a Janus answers, or soon (then channels start peer to peer and move when one is up). */
    ready: async () => {
      await backends.ready();
      wasAvailable = backends.alive().length > 0;
    },
    /** Another instance made or ended a patch (null). */
    learnPatch: (patchId: string, channelIds: number[] | null) => patches.learn(patchId, channelIds),
    /** Another instance moved this channel: participants linked to the old Janus here start over. */
    async movedElsewhere(channelId: number) {
      if (!channels.has(channelId)) return;
      await backendFor(channelId, true);
    },
  });
}

export type JanusPlane = ReturnType<typeof janusPlane>;
