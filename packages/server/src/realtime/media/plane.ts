/**
 * Where a channel's voice goes. The rooms, the floor and the socket layer speak to a media plane, never to a
 * transport: the mesh (browsers connect to each other; the server relays their signalling) is the first
 * implementation, a media server the next. LiveKit keeps its signal client and transports apart in the same
 * way: swapping the mesh for a server touches one implementation, not the rooms.
 *
 * Per channel: it is opened when its first participant is admitted here and closed when its last one leaves
 * this instance; a grant lets a participant be heard, a revoke silences it again.
 */
import type { MediaKind, ParticipationMode } from '@talkgroup/protocol';
import type { ChannelSummary } from '../../channels/store.ts';
import type { RtpAddress, RtpLeg } from '../../janus/room-requests.ts';
import type { SocketConcern } from '../io.ts';

/**
 * The id under which a spec client sees the media server in a `server` channel: one peer for the whole
 * channel, named as the channel (janus/signalling.ts answers what the spec client sends it).
 */
export const SPEC_PEER_ID = 'talkgroup-media-server';

export interface MediaParticipant {
  socketId: string;
  userId: number;
  name: string;
  mode: ParticipationMode;
  /** It holds the floor (a participant moved from another plane keeps being heard). */
  heard?: boolean;
  /**
   * A spec client (joined without a mode: it knows only the mesh events). On the media server it sees one peer
   * for the whole channel (janus/plane.ts, SPEC_PEER_ID).
   */
  spec?: boolean;
  /** It was in the channel already and comes from another plane (nobody offers: a media server offers it). */
  moved?: boolean;
  /**
   * A SIP gateway's call (issue 51): it has no socket and cannot start over on its own, so its media lost (its
   * Janus down, the channel moved, or gone peer to peer) ends the call: this is called, and the call hangs up.
   */
  lost?: (reason: string) => void;
}

export interface ChannelMedia {
  readonly channelId: number;
  readonly kind: MediaKind;
  /** A participant entered the channel (or changed its mode). */
  admit(participant: MediaParticipant): Promise<void>;
  /** A participant left the channel (its socket may stay in others). */
  remove(socketId: string): Promise<void>;
  /** The floor was given to this participant: it is heard from now on. */
  grantTalk(socketId: string): Promise<void>;
  /** The floor was taken back (release, revoke, timeout, preemption): it is silenced. */
  revokeTalk(socketId: string): Promise<void>;
  /** Its last participant left this instance. */
  close(): Promise<void>;
  /** Who is in it on this instance (to move them to another plane). */
  participants(): MediaParticipant[];
}

export interface MediaPlane {
  /** How the voice of the channels it carries travels. */
  readonly kind: MediaKind;
  /** The socket events this plane needs (the mesh: the signalling relay; a media server: offers, candidates). */
  readonly concern: SocketConcern;
  /** The channel's media on this instance, opened on first use. */
  channel(channelId: number): ChannelMedia;
  /** The channel's media if it is open here. */
  opened(channelId: number): ChannelMedia | undefined;
  /** Closes every channel (shutting down). */
  stop(): Promise<void>;
}

/**
 * The planes of a deployment: the mesh always, a media server when JANUS_URL is set. A channel goes through
 * the media server unless its voiceMode is `mesh`.
 */
export interface MediaPlanes {
  kindOf(channel: Pick<ChannelSummary, 'voiceMode'>): MediaKind;
  /** The channel should go through the media server but none answers now: it goes peer to peer meanwhile. */
  fallback(channel: Pick<ChannelSummary, 'voiceMode'>): boolean;
  /** The channel's voiceMode changed: its participants here move to the plane it asks for now. */
  follow(channel: Pick<ChannelSummary, 'id' | 'voiceMode'>): Promise<void>;
  channel(channel: Pick<ChannelSummary, 'id' | 'voiceMode'>): ChannelMedia;
  opened(channelId: number): ChannelMedia | undefined;
  /**
   * The floor went to this socket (`heard`) or left it: the media plane lets it be heard or silences it, here
   * if the socket is this instance's, else on the instance that holds it (through `relay`).
   */
  heard(channelId: number, socketId: string, heard: boolean): Promise<void>;
  /** A floor change relayed by another instance. */
  applyRelayed(channelId: number, socketId: string, heard: boolean): Promise<void>;
  /**
   * Whether these channels can be patched together (the dispatch console): only when a media server carries
   * every one of them (a mesh has no place where one channel's voice could reach another's).
   */
  canPatch(channels: Array<Pick<ChannelSummary, 'voiceMode'>>): boolean;
  /**
   * Joins the voice of these channels until `unpatch`: what is said in one is heard in the others. Only when
   * `canPatch` says so; a patch id names it on every instance.
   */
  patch(patchId: string, channels: Array<Pick<ChannelSummary, 'id' | 'voiceMode'>>): Promise<void>;
  unpatch(patchId: string): Promise<void>;
  /**
   * An all call from this socket in these channels begins (null: it ended): through the media server it is
   * recorded once, and kept in each channel's history.
   */
  allCall(socketId: string, channelIds: number[] | null): void;
  /**
   * A SIP gateway's call joins the channel's voice through the media server (issue 51): a participant fed by
   * plain RTP; answers where the media server listens for it. Refused (MediaUnavailableError) where the channel's
   * voice does not go through a media server now.
   */
  joinRtp(
    channel: Pick<ChannelSummary, 'id' | 'voiceMode'>,
    participant: MediaParticipant,
    leg: RtpLeg,
  ): Promise<RtpAddress>;
  readonly concerns: SocketConcern[];
  stop(): Promise<void>;
}

/** A media server's plane: it also applies floor changes relayed by other instances, and patches channels. */
export interface ServerPlane extends MediaPlane {
  apply(channelId: number, socketId: string, heard: boolean): Promise<void>;
  /** A media server answers now (with none, its channels go peer to peer until one is back). */
  available(): boolean;
  /** Called when `available()` changes; returns the function that stops listening. */
  onAvailability(listener: (available: boolean) => void): () => void;
  /** Joins these channels' voice (see MediaPlanes.patch); absent where the media server cannot. */
  patch?(patchId: string, channelIds: number[]): Promise<void>;
  unpatch?(patchId: string): Promise<void>;
  /** See MediaPlanes.allCall. */
  allCall?(socketId: string, channelIds: number[] | null): void;
  /** See MediaPlanes.joinRtp. */
  joinRtp?(channelId: number, participant: MediaParticipant, leg: RtpLeg): Promise<RtpAddress>;
}

/** A gateway's call to a channel whose voice does not go through a media server now. */
export class MediaUnavailableError extends Error {}

/** Patching asked of a deployment that cannot patch those channels: the caller answers 409. */
export class PatchUnavailableError extends Error {}

export interface PlaneHooks {
  /** Hands a floor change to the instance that holds the participant's socket. */
  relay?: (channelId: number, socketId: string, heard: boolean) => void;
  /**
   * These sockets' voice in the channel goes another way now: they are told (`media_plane`; `fallback`: peer
   * to peer only because no media server answers).
   */
  switched?: (channelId: number, socketIds: string[], kind: MediaKind, fallback: boolean) => void;
  failed?: (error: unknown, channelId: number) => void;
}

export function mediaPlanes(mesh: MediaPlane, server?: ServerPlane, hooks: PlaneHooks = {}): MediaPlanes {
  const { relay = () => {}, switched = () => {}, failed = () => {} } = hooks;
  /** The channels whose voice should go through the media server (voiceMode `server`), seen here. */
  const serverChannels = new Set<number>();
  const planeOf = (channel: Pick<ChannelSummary, 'voiceMode'>) =>
    server && channel.voiceMode !== 'mesh' && server.available() ? server : mesh;

  /**
   * No media server answers any more (or one is back): the channels that should go through it move, with
   * the participants this instance holds, and their pages are told to change their transport.
   */
  async function move(from: MediaPlane, to: MediaPlane): Promise<void> {
    for (const channelId of serverChannels) await moveChannel(channelId, from, to);
  }

  async function moveChannel(channelId: number, from: MediaPlane, to: MediaPlane): Promise<void> {
    const media = from.opened(channelId);
    if (!media) return;
    try {
      const all = media.participants();
      for (const participant of all) await media.remove(participant.socketId);
      // A gateway's call cannot move (it has no socket to offer again): it ends, and its gateway dials again.
      for (const participant of all) participant.lost?.('The channel changed media server.');
      const participants = all.filter((participant) => !participant.lost);
      const target = to.channel(channelId);
      for (const participant of participants) await target.admit({ ...participant, moved: true });
      switched(
        channelId,
        participants.map((participant) => participant.socketId),
        to.kind,
        to.kind === 'mesh' && serverChannels.has(channelId),
      );
    } catch (error) {
      failed(error, channelId);
    }
  }
  server?.onAvailability((available) => {
    void (available ? move(mesh, server) : move(server, mesh));
  });

  return {
    kindOf: (channel) => planeOf(channel).kind,
    fallback: (channel) => Boolean(server && channel.voiceMode !== 'mesh' && !server.available()),
    async follow(channel) {
      if (!server) return;
      if (channel.voiceMode !== 'mesh') serverChannels.add(channel.id);
      else serverChannels.delete(channel.id);
      const wanted = planeOf(channel);
      await moveChannel(channel.id, wanted === mesh ? server : mesh, wanted);
    },
    channel(channel) {
      if (server && channel.voiceMode !== 'mesh') serverChannels.add(channel.id);
      else serverChannels.delete(channel.id);
      return planeOf(channel).channel(channel.id);
    },
    opened: (channelId) => mesh.opened(channelId) ?? server?.opened(channelId),
    async heard(channelId, socketId, heard) {
      const media = mesh.opened(channelId) ?? server?.opened(channelId);
      if (media) await (heard ? media.grantTalk(socketId) : media.revokeTalk(socketId));
      // A participant on another instance, in a channel nobody is in here.
      else if (server) relay(channelId, socketId, heard);
    },
    applyRelayed: async (channelId, socketId, heard) => server?.apply(channelId, socketId, heard),
    canPatch: (channels) =>
      Boolean(server?.patch) && channels.length > 0 && channels.every((channel) => channel.voiceMode !== 'mesh'),
    async patch(patchId, channels) {
      if (!server?.patch || !channels.every((channel) => channel.voiceMode !== 'mesh'))
        throw new PatchUnavailableError('Channels can be patched only through the media server (JANUS_URL).');
      await server.patch(
        patchId,
        channels.map((channel) => channel.id),
      );
    },
    async unpatch(patchId) {
      await server?.unpatch?.(patchId);
    },
    allCall: (socketId, channelIds) => server?.allCall?.(socketId, channelIds),
    async joinRtp(channel, participant, leg) {
      if (!server?.joinRtp || planeOf(channel) !== server)
        throw new MediaUnavailableError('This channel does not go through the media server now.');
      serverChannels.add(channel.id);
      return server.joinRtp(channel.id, participant, leg);
    },
    concerns: server ? [mesh.concern, server.concern] : [mesh.concern],
    async stop() {
      await Promise.all([mesh.stop(), server?.stop()]);
    },
  };
}

/**
 * Keeps the open channels of a plane: opens one on first use, closes it when its last participant is removed.
 * An implementation hands in how to open one.
 */
export function channelRegistry(open: (channelId: number, closed: () => void) => ChannelMedia) {
  const channels = new Map<number, ChannelMedia>();
  return {
    channel(channelId: number): ChannelMedia {
      let media = channels.get(channelId);
      if (!media) {
        const opened = open(channelId, () => {
          if (channels.get(channelId) === opened) channels.delete(channelId);
        });
        media = opened;
        channels.set(channelId, media);
      }
      return media;
    },
    opened: (channelId: number) => channels.get(channelId),
    async stop(): Promise<void> {
      await Promise.allSettled([...channels.values()].map((media) => media.close()));
      channels.clear();
    },
  };
}
