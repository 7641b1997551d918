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
import type { Concern } from '../context.ts';

export interface MediaParticipant {
  socketId: string;
  userId: number;
  name: string;
  mode: ParticipationMode;
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
}

export interface MediaPlane {
  /** How the voice of the channels it carries travels. */
  readonly kind: MediaKind;
  /** The socket events this plane needs (the mesh: the signalling relay; a media server: offers, candidates). */
  readonly concern: Concern;
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
  channel(channel: Pick<ChannelSummary, 'id' | 'voiceMode'>): ChannelMedia;
  opened(channelId: number): ChannelMedia | undefined;
  /**
   * The floor went to this socket (`heard`) or left it: the media plane lets it be heard or silences it, here
   * if the socket is this instance's, else on the instance that holds it (through `relay`).
   */
  heard(channelId: number, socketId: string, heard: boolean): Promise<void>;
  /** A floor change relayed by another instance. */
  applyRelayed(channelId: number, socketId: string, heard: boolean): Promise<void>;
  readonly concerns: Concern[];
  stop(): Promise<void>;
}

/** A media server's plane: it also applies floor changes relayed by other instances. */
export interface ServerPlane extends MediaPlane {
  apply(channelId: number, socketId: string, heard: boolean): Promise<void>;
}

export function mediaPlanes(
  mesh: MediaPlane,
  server?: ServerPlane,
  relay: (channelId: number, socketId: string, heard: boolean) => void = () => {},
): MediaPlanes {
  const planeOf = (channel: Pick<ChannelSummary, 'voiceMode'>) =>
    server && channel.voiceMode !== 'mesh' ? server : mesh;
  return {
    kindOf: (channel) => planeOf(channel).kind,
    channel: (channel) => planeOf(channel).channel(channel.id),
    opened: (channelId) => mesh.opened(channelId) ?? server?.opened(channelId),
    async heard(channelId, socketId, heard) {
      const media = mesh.opened(channelId) ?? server?.opened(channelId);
      if (media) await (heard ? media.grantTalk(socketId) : media.revokeTalk(socketId));
      // A participant on another instance, in a channel nobody is in here.
      else if (server) relay(channelId, socketId, heard);
    },
    applyRelayed: async (channelId, socketId, heard) => server?.apply(channelId, socketId, heard),
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
