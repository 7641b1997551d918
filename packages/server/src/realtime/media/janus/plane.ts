/**
 * Channels through a media server: Janus (issues 26 and 37). Browsers never speak to Janus's API: this server
 * holds the Janus sessions and handles and relays each browser's SDP over the socket (signalling.ts), so that
 * the token and `may()` guard everything and only media (RTP, or TURN) reaches Janus from browsers.
 *
 * - Each channel is carried by one Janus (assignments.ts: the same for every app instance), in rooms made on
 *   demand and destroyed when nobody is left (rooms.ts).
 * - A page that may talk publishes its microphone in the channel's VideoRoom (`send`); every page watches the
 *   channel's mountpoint (`receive`). Only the floor holder's packets are forwarded to the mountpoint, as they
 *   arrived (feed.ts): no decoding, no mixer's tick, no encoding again. A talker's change renegotiates nothing.
 * - The floor is enforced in Janus: a grant starts the holder's forward (and its recording: takes.ts), a
 *   release, revoke, timeout or preemption stops it; a browser that enables its own track without the floor
 *   is not heard. Floor changes run in order per participant.
 * - A spec client (the spec's mesh events, one connection that sends and receives) sees the media server as
 *   one peer named as the channel (`SPEC_PEER_ID`): its offer is answered by the channel's AudioBridge, where
 *   it hears every talker (the holder is forwarded to the bridge's relay) and, holding the floor, is heard.
 *   An older page of the app (an offer without a leg) is answered the same way.
 * - The participant's handles live on the instance that holds its socket; a floor change decided elsewhere
 *   reaches it through `relay` (between instances) and `apply`.
 * - A Janus lost (killed, hung, restarting) is noticed within seconds (connection.ts): its participants are
 *   told (`media_reset`) and offer again, to another Janus if one is alive; with none left the channels go
 *   peer to peer (plane.ts moves them) and come back once one answers again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { type ChannelMedia, channelRegistry, type MediaParticipant, type ServerPlane, SPEC_PEER_ID } from '../plane.ts';
import { type AssignmentStore, candidateFor } from './assignments.ts';
import { AUDIOBRIDGE, type JanusBackend, janusBackends, STREAMING, VIDEOROOM } from './backends.ts';
import { type JanusHandle, JanusPluginError, JanusUnavailableError } from './connection.ts';
import { janusFeed, publisherDisplay } from './feed.ts';
import { janusPatches, type PatchList } from './patches.ts';
import {
  janusRooms,
  LOCAL_GROUP,
  NO_SUCH_MOUNTPOINT,
  NO_SUCH_ROOM,
  NO_SUCH_SFU_ROOM,
  PREBUFFER_PACKETS,
} from './rooms.ts';
import { audioMid, tuneAnswer } from './sdp.ts';
import { janusKeys } from './secrets.ts';
import { janusSignalling, type SpecDescription } from './signalling.ts';
import type { Take, Takes } from './takes.ts';

/** AudioBridge: this handle already joined (a renegotiation). VideoRoom: likewise. */
const ALREADY_JOINED = [491, 425];

type LinkKind = 'send' | 'watch' | 'bridge';

/** One of the participant's connections with Janus. */
interface Link {
  backend: JanusBackend;
  handle: JanusHandle;
  kind: LinkKind;
  off: () => void;
  /** `send`: its publisher id in the VideoRoom, and the mid and m-line index of its audio. */
  publisherId?: number;
  mid?: string;
  mindex?: number;
}

interface Participant extends MediaParticipant {
  channelId: number;
  heard: boolean;
  send?: Link;
  watch?: Link;
  bridge?: Link;
  /** It is on the air (forwarded to the channel) through its uplink. */
  onAir?: boolean;
  take?: Take;
  /** A spec client: how its descriptions came (a string, or `{ type, sdp }`), answered alike. */
  specShape?: 'string' | 'object';
  /** Its negotiations and floor changes, one after the other. */
  queue: Promise<unknown>;
  /** A spec client's connection is being made again by the server (after a reset). */
  reoffer?: NodeJS.Timeout;
}

export interface JanusPlaneOptions {
  urls: string[];
  apiSecret?: string;
  log: FastifyBaseLogger;
  takes: Takes;
  store: AssignmentStore;
  /** Tells a socket of this instance that its media link is gone (`media_reset`). */
  resetSocket: (socketId: string, channelId: number, reason: string) => void;
  /**
   * Speaks to a spec client of this instance as the media server's peer (`getOffer`, `user_exit`): the
   * channel's rtcSession and name are filled in by the caller.
   */
  tellSpecClient?: (socketId: string, channelId: number, message: SpecMessage) => void;
  /** Hands a floor change to the instance that holds the participant's socket. */
  relay: (channelId: number, socketId: string, heard: boolean) => void;
  /** This instance moved a channel to another Janus: the others drop their participants' old links. */
  moved: (channelId: number) => void;
  /** The patches in force (the dispatch console keeps them), applied again when rooms are made again. */
  activePatches?: PatchList;
  /** A patch made or ended here (null): the other instances learn it. */
  sharePatch?: (patchId: string, channelIds: number[] | null) => void;
}

/** What the media server's peer says to a spec client on its own. */
export type SpecMessage = { kind: 'offer'; sdp: SpecDescription } | { kind: 'gone' };

export interface MediaServerHealth {
  url: string;
  reachable: boolean;
  rooms: number;
  lastError: { message: string; at: string } | null;
}

const LOST = 'The media server restarted: reconnecting the voice.';
const SPEC_REOFFER_MS = 1_000;
/** When an empty channel's rooms are looked at again while Janus still counts someone in them. */
const CLOSE_AGAIN_MS = [250, 500, 1_000, 2_000, 4_000, 8_000];

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
        if (linksOf(participant).some((link) => link.backend === backend)) lost(participant, LOST);
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
  /**
   * All calls from this instance's sockets (the dispatch console talking in several channels at once): their
   * channels, the one whose take is the call's recording (`lead`, the first on the air), and those it was on
   * the air in. One recording, kept in each of them (issue 37).
   */
  const allCalls = new Map<string, { channelIds: number[]; lead?: number; aired: Set<number> }>();
  const patches = janusPatches({
    backends,
    rooms,
    store,
    log,
    keys,
    backendFor,
    activePatches: options.activePatches,
    refeed: (backend, channelId) => feed.apply(backend, channelId),
  });
  const feed = janusFeed({ rooms, keys, store, log, patched: (channelId) => patches.holds(channelId) });

  const linksOf = (participant: Participant): Link[] =>
    [participant.send, participant.watch, participant.bridge].filter((link): link is Link => link !== undefined);

  /** The link that carries the participant's voice up: its publisher, or its place in the mixer. */
  const uplinkOf = (participant: Participant): Link | undefined =>
    participant.send?.publisherId ? participant.send : participant.bridge;

  /**
   * Puts the participant's voice on the air or takes it off (feed.ts decides where it goes, with whatever else
   * is on the air), and starts or ends its recording (`recordAs`: the take's base name).
   */
  async function air(participant: Participant, uplink: Link, on: boolean, recordAs?: string): Promise<void> {
    const { channelId } = participant;
    const record = on ? (recordAs ? { record: true, filename: recordAs } : {}) : { record: false };
    if (uplink.kind === 'bridge') {
      await uplink.handle.message({ request: 'configure', muted: !on, ...record });
      await feed.apply(uplink.backend, channelId, { kind: 'bridge', on });
      return;
    }
    const change = { kind: 'publisher' as const, publisherId: uplink.publisherId ?? 0, mid: uplink.mid ?? '', on };
    const recording =
      on && !recordAs
        ? undefined
        : uplink.handle.message({ request: 'configure', secret: keys.roomSecret(channelId), ...record });
    await Promise.all([feed.apply(uplink.backend, channelId, change), recording]);
  }

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
      if (participant.socketId !== offering && linksOf(participant).some((link) => link.backend !== backend))
        lost(participant, 'The channel moved to another media server.');
  }

  /** Its links are gone: it is told, and starts over (a spec client: the server offers again). */
  function lost(participant: Participant, reason: string): void {
    void dropLinks(participant, true);
    if (participant.spec) {
      options.tellSpecClient?.(participant.socketId, participant.channelId, { kind: 'gone' });
      scheduleSpecOffer(participant);
    } else options.resetSocket(participant.socketId, participant.channelId, reason);
  }

  function serial<T>(participant: Participant, work: () => Promise<T>): Promise<T> {
    const run = participant.queue.catch(() => {}).then(work);
    participant.queue = run;
    return run;
  }

  /**
   * Ends what the participant has on the air (its forwards, its take) and forgets one link, or all of them;
   * `leave`: tells Janus too (it is still there). Resolves once Janus has let the handles go (a take is
   * finished after that, unawaited), so that whoever counts the rooms' participants next does not count it.
   */
  function dropLinks(participant: Participant, leave: boolean, only?: LinkKind): Promise<void> {
    const links = linksOf(participant).filter((link) => !only || link.kind === only);
    if (links.length === 0) return Promise.resolve();
    const uplink = uplinkOf(participant);
    const endsAir = participant.onAir && uplink !== undefined && links.includes(uplink);
    const take = endsAir ? participant.take : undefined;
    if (endsAir) {
      participant.onAir = false;
      participant.take = undefined;
    }
    for (const link of links) {
      participant[link.kind] = undefined;
      link.off();
    }
    const left = (async () => {
      // On the air when its page closed (or its link failed): its forwards stop and Janus closes its take first.
      if (endsAir && uplink && leave && uplink.backend.up) await air(participant, uplink, false).catch(() => {});
      for (const link of links) {
        if (!leave || !link.backend.up) continue;
        if (link.kind !== 'watch') await link.handle.message({ request: 'leave' }).catch(() => {});
        await link.handle.detach().catch(() => {});
      }
      // Gone without a word (Janus down): what else was on the air is forwarded the right way again.
      if (endsAir && uplink && !leave && uplink.backend.up)
        await feed.apply(uplink.backend, participant.channelId).catch(() => {});
    })();
    void left.then(async () => {
      if (take) await takes.finish(take);
    });
    return left;
  }

  /** A new handle for one of the participant's links on the channel's Janus, watched for Janus hanging it up. */
  async function attach(participant: Participant, backend: JanusBackend, kind: LinkKind): Promise<Link> {
    await dropLinks(participant, true, kind);
    // A page moving from the mixer to the VideoRoom (or back) keeps one uplink.
    if (kind === 'send') await dropLinks(participant, true, 'bridge');
    if (kind === 'bridge') await dropLinks(participant, true, 'send');
    const { session } = await backend.control();
    const plugin = kind === 'send' ? VIDEOROOM : kind === 'watch' ? STREAMING : AUDIOBRIDGE;
    const handle = await session.attach(plugin);
    const link: Link = { backend, handle, kind, off: () => {} };
    link.off = handle.onEvent((message) => {
      const data = message.plugindata?.data;
      const gone =
        message.janus === 'hangup' ||
        message.janus === 'detached' ||
        data?.audiobridge === 'destroyed' ||
        data?.videoroom === 'destroyed';
      if (!gone || participant[kind] !== link) return;
      lost(participant, 'The voice link with the media server was lost.');
    });
    participant[kind] = link;
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
      const gone =
        error instanceof JanusPluginError && [NO_SUCH_ROOM, NO_SUCH_SFU_ROOM, NO_SUCH_MOUNTPOINT].includes(error.code);
      if (!gone) throw error;
      rooms.forget(backend, channelId);
      return work(backend);
    }
  }

  /** Whether the participant's take is recorded: always, but in an all call's channels other than its lead's. */
  function recordsHere(participant: Participant): boolean {
    const call = allCalls.get(participant.socketId);
    if (!call?.channelIds.includes(participant.channelId)) return true;
    call.aired.add(participant.channelId);
    const leadOnAir = call.lead !== undefined && participantOf(call.lead, participant.socketId)?.onAir === true;
    if (!leadOnAir || call.lead === participant.channelId) call.lead = participant.channelId;
    return call.lead === participant.channelId;
  }

  /** The all call's other channels that its lead's take is kept in (read when the take ends). */
  function allCallOf(participant: Participant): (() => number[]) | undefined {
    const call = allCalls.get(participant.socketId);
    if (!call || call.lead !== participant.channelId) return undefined;
    return () => [...call.aired].filter((channelId) => channelId !== participant.channelId);
  }

  /** Puts the participant on the air (forwarded and recorded) or takes it off, as its floor says. */
  async function applyHeard(participant: Participant): Promise<void> {
    const uplink = uplinkOf(participant);
    if (!uplink) return;
    if (participant.heard && !participant.onAir) {
      participant.onAir = true;
      const take = recordsHere(participant)
        ? await takes.begin(participant.channelId, participant.userId, allCallOf(participant))
        : undefined;
      if (take && uplink.kind === 'send') take.file = `${take.base}-audio-${uplink.mindex ?? 0}.mjr`;
      participant.take = take;
      await air(participant, uplink, true, take?.base);
    } else if (!participant.heard && participant.onAir) {
      const take = participant.take;
      participant.onAir = false;
      participant.take = undefined;
      await air(participant, uplink, false);
      if (take) void takes.finish(take);
    }
  }

  function participantOf(channelId: number, socketId: string): Participant | undefined {
    return channels.get(channelId)?.get(socketId);
  }

  /** Joins the participant to the channel's AudioBridge (a spec client, an older page): muted, group local. */
  async function joinBridge(
    participant: Participant,
    backend: JanusBackend,
    jsep: { type: 'offer'; sdp: string } | undefined,
  ): Promise<{ type: 'offer' | 'answer'; sdp: string }> {
    await rooms.bridge(backend, participant.channelId);
    const { handle } = await attach(participant, backend, 'bridge');
    await handle
      .message({
        request: 'join',
        room: participant.channelId,
        pin: keys.roomPin(participant.channelId),
        id: Math.floor(Math.random() * 2 ** 52) + 1,
        group: LOCAL_GROUP,
        display: participant.name,
        muted: true,
        prebuffer: PREBUFFER_PACKETS,
      })
      .catch((error) => {
        if (!(error instanceof JanusPluginError && ALREADY_JOINED.includes(error.code))) throw error;
      });
    const negotiated = await handle.message(
      jsep ? { request: 'configure', muted: true } : { request: 'configure', muted: true, generate_offer: true },
      jsep,
    );
    if (!negotiated.jsep?.sdp) throw new Error('the media server sent no description for the connection');
    if (participant.heard) await applyHeard(participant);
    return { type: negotiated.jsep.type, sdp: jsep ? tuneAnswer(negotiated.jsep.sdp) : negotiated.jsep.sdp };
  }

  /** The server offers a spec client its connection again (after a reset), until it is made or it left. */
  function scheduleSpecOffer(participant: Participant): void {
    if (participant.reoffer) return;
    participant.reoffer = setTimeout(() => {
      participant.reoffer = undefined;
      if (participantOf(participant.channelId, participant.socketId) !== participant || participant.bridge) return;
      void serial(participant, () =>
        withRoom(participant.channelId, participant.socketId, (backend) => joinBridge(participant, backend, undefined)),
      )
        .then((offer) =>
          options.tellSpecClient?.(participant.socketId, participant.channelId, {
            kind: 'offer',
            sdp: participant.specShape === 'string' ? offer.sdp : { type: 'offer', sdp: offer.sdp },
          }),
        )
        .catch((error) => {
          if (!(error instanceof JanusUnavailableError))
            log.warn({ err: error, channelId: participant.channelId }, 'could not offer a spec client its voice');
          scheduleSpecOffer(participant);
        });
    }, SPEC_REOFFER_MS);
    participant.reoffer.unref();
  }

  const signalling = janusSignalling({
    specPeerId: SPEC_PEER_ID,
    /** A page that talks: publishes its microphone (not forwarded until it holds the floor). */
    publish: (channelId, socketId, sdp) => {
      const participant = participantOf(channelId, socketId);
      if (!participant) return undefined;
      return serial(participant, () =>
        withRoom(channelId, socketId, async (backend) => {
          await rooms.sfu(backend, channelId);
          const link = await attach(participant, backend, 'send');
          const publisherId = Math.floor(Math.random() * 2 ** 52) + 1;
          const audio = audioMid(sdp);
          if (!audio) throw new Error('the offer carries no audio to publish');
          const answer = await link.handle.message(
            {
              request: 'joinandconfigure',
              ptype: 'publisher',
              room: channelId,
              pin: keys.roomPin(channelId),
              id: publisherId,
              display: publisherDisplay(audio.mid, participant.name),
              audiocodec: 'opus',
            },
            { type: 'offer', sdp },
          );
          if (!answer.jsep?.sdp) throw new Error('the media server sent no answer to the offer');
          Object.assign(link, { publisherId, mid: audio.mid, mindex: audio.mindex });
          if (participant.heard) await applyHeard(participant);
          return tuneAnswer(answer.jsep.sdp);
        }),
      );
    },
    /** An older page of the app (one connection that sends and receives): the channel's mixer answers it. */
    bridge: (channelId, socketId, sdp) => {
      const participant = participantOf(channelId, socketId);
      if (!participant) return undefined;
      return serial(participant, () =>
        withRoom(
          channelId,
          socketId,
          async (backend) => (await joinBridge(participant, backend, { type: 'offer', sdp })).sdp,
        ),
      );
    },
    /** A spec client's offer to the media server's peer: answered by the channel's mixer. */
    specOffer: (channelId, socketId, description) => {
      const participant = participantOf(channelId, socketId);
      if (!participant) return undefined;
      participant.specShape = typeof description === 'string' ? 'string' : 'object';
      const sdp = typeof description === 'string' ? description : description.sdp;
      return serial(participant, () =>
        withRoom(channelId, socketId, async (backend) => {
          const answer = await joinBridge(participant, backend, { type: 'offer', sdp });
          return participant.specShape === 'string' ? answer.sdp : { type: 'answer', sdp: answer.sdp };
        }),
      );
    },
    /** A spec client's answer to the server's own offer (after a reset). */
    specAnswer: (channelId, socketId, description) => {
      const participant = participantOf(channelId, socketId);
      if (!participant) return undefined;
      const sdp = typeof description === 'string' ? description : description.sdp;
      return serial(participant, async () => {
        const link = participant.bridge;
        if (!link) return false;
        await link.handle.message({ request: 'configure', muted: !participant.onAir }, { type: 'answer', sdp });
        return true;
      });
    },
    /** Every page hears the channel: Janus offers its mountpoint. */
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
        const link = participant.watch;
        if (!link) return false;
        await link.handle.message({ request: 'start' }, { type: 'answer', sdp });
        return true;
      });
    },
    handleOf: (channelId, socketId, leg) => {
      const participant = participantOf(channelId, socketId);
      if (!participant) return undefined;
      if (leg === 'receive') return participant.watch?.handle;
      if (leg === 'send') return participant.send?.handle;
      return (participant.send ?? participant.bridge ?? participant.watch)?.handle;
    },
    specHandleOf: (channelId, socketId) => participantOf(channelId, socketId)?.bridge?.handle,
  });

  /**
   * Nobody here is in the channel any more: its rooms go once Janus counts nobody either. Janus may still count
   * the last one for a moment (it finishes a detach after answering it) or another instance's participants, so
   * it is asked again a few times, unawaited, until someone comes back here.
   */
  async function closeWhenEmpty(backend: JanusBackend, channelId: number): Promise<void> {
    const emptyHere = () => !channels.has(channelId) && !placed.has(channelId);
    const destroy = () => rooms.destroyIfUnused(backend, channelId, () => patches.holds(channelId));
    if (!(await destroy())) return;
    void (async () => {
      for (const wait of CLOSE_AGAIN_MS) {
        await sleep(wait, undefined, { ref: false });
        if (!emptyHere() || !(await destroy())) return;
      }
    })();
  }

  const registry = channelRegistry((channelId, closed): ChannelMedia => {
    const participants = new Map<string, Participant>();
    /** The links of those who left, while Janus lets them go. */
    const leaving = new Set<Promise<void>>();
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
        if (known) {
          known.mode = participant.mode;
          return;
        }
        const admitted: Participant = {
          ...participant,
          channelId,
          heard: participant.heard ?? false,
          queue: Promise.resolve(),
        };
        participants.set(participant.socketId, admitted);
        // A spec client moved here from the mesh: nobody offers, so the server does.
        if (participant.spec && participant.moved) scheduleSpecOffer(admitted);
      },
      async remove(socketId) {
        const participant = participants.get(socketId);
        if (!participant) return;
        participants.delete(socketId);
        clearTimeout(participant.reoffer);
        if (!everyone().some((other) => other.socketId === socketId)) allCalls.delete(socketId);
        const bridged = participant.bridge !== undefined;
        const left = serial(participant, async () => dropLinks(participant, true));
        leaving.add(left);
        await left.finally(() => leaving.delete(left));
        const backend = backends.byUrl(placed.get(channelId) ?? '');
        if (participants.size > 0) {
          // One who was in the mixer left: the mixer may go (if no spec client and no patch needs it).
          if (bridged && backend) await rooms.destroyBridgeIfUnused(backend, channelId, () => patches.holds(channelId));
          return;
        }
        // Whoever left just before is still being let go by Janus: it is not counted as staying. The last of
        // those who left together closes the channel, once (a newcomer since has a channel of its own).
        await Promise.allSettled([...leaving]);
        if (participants.size > 0 || channels.get(channelId) !== participants) return;
        forgetChannel();
        placed.delete(channelId);
        if (backend) await closeWhenEmpty(backend, channelId);
      },
      grantTalk: (socketId) => setHeard(socketId, true),
      revokeTalk: (socketId) => setHeard(socketId, false),
      async close() {
        for (const participant of participants.values()) {
          clearTimeout(participant.reoffer);
          void dropLinks(participant, true);
        }
        participants.clear();
        forgetChannel();
      },
      participants: () =>
        [...participants.values()].map(({ socketId, userId, name, mode, heard, spec }) => ({
          socketId,
          userId,
          name,
          mode,
          heard,
          ...(spec ? { spec } : {}),
        })),
    };
  });

  const plane: ServerPlane = {
    kind: 'server',
    concern: signalling,
    ...registry,
    async stop() {
      patches.stop();
      for (const participant of everyone()) clearTimeout(participant.reoffer);
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
    /** The first of the all call's channels on the air records it for all of them. */
    allCall(socketId, channelIds) {
      if (channelIds) allCalls.set(socketId, { channelIds, aired: new Set() });
      else allCalls.delete(socketId);
    },
  };
  return Object.assign(plane, {
    /** Resolves once a Janus answers, or soon (then channels start peer to peer and move when one is up). */
    ready: async () => {
      await backends.ready();
      wasAvailable = backends.alive().length > 0;
      // A Janus that does not answer at start is said once, in words an operator acts on; its connection keeps
      // trying, and says "media server connected" once it answers.
      for (const backend of backends.all) {
        if (backend.up) continue;
        const why = backend.connection.lastError?.message ?? 'no answer yet';
        const meanwhile = wasAvailable
          ? 'the other media servers take its channels'
          : 'the server serves meanwhile with voice peer to peer, and /readyz answers 503 (not ready)';
        log.warn(
          { url: backend.url, why },
          `the media server at JANUS_URL ${backend.url} does not answer (${why}): ${meanwhile}; it keeps trying and moves the channels to it once it answers`,
        );
      }
    },
    /** Each Janus: reachable now, the channel rooms this instance has on it, why it last failed (/readyz). */
    health: (): MediaServerHealth[] =>
      backends.all.map((backend) => ({
        url: backend.url,
        reachable: backend.up,
        rooms: backend.up ? rooms.count(backend) : 0,
        lastError: backend.connection.lastError,
      })),
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
