/**
 * Where a channel's voice goes. The rooms, the floor and the socket layer speak to a media plane, never to a
 * transport: the mesh (browsers connect to each other; the server relays their signalling) is the first
 * implementation, a media server the next. LiveKit keeps its signal client and transports apart in the same
 * way: swapping the mesh for a server touches one implementation, not the rooms.
 *
 * Per channel: it is opened when its first participant is admitted here and closed when its last one leaves
 * this instance; a grant lets a participant be heard, a revoke silences it again.
 */
import type { ParticipationMode } from '@talkgroup/protocol';
import type { Concern } from '../context.ts';

export interface MediaParticipant {
  socketId: string;
  userId: number;
  name: string;
  mode: ParticipationMode;
}

export interface ChannelMedia {
  readonly channelId: number;
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
  /** What the clients are told about how the voice travels. */
  readonly kind: 'mesh' | 'server';
  /** The socket events this plane needs (the mesh: the signalling relay). */
  readonly concern: Concern;
  /** The channel's media on this instance, opened on first use. */
  channel(channelId: number): ChannelMedia;
  /** The channel's media if it is open here. */
  opened(channelId: number): ChannelMedia | undefined;
  /** Closes every channel (shutting down). */
  stop(): Promise<void>;
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
