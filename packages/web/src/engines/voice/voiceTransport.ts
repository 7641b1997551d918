/**
 * How a channel's voice travels, behind one interface: the room page (roster, push-to-talk) never touches a
 * peer connection. LiveKit's client keeps signalling, transports and room apart in the same way: the socket is
 * the signal client (signalClient.ts), a transport per channel owns the connections (the mesh today:
 * meshTransport.ts; a media server next), and the room (voiceRoom.ts) owns who is there and who talks.
 */
import type { RoomPeer } from '@talkgroup/protocol';

/** The voice link with one peer, as the transport sees it. */
export interface VoiceLink {
  /** The peer's socket id. */
  id: string;
  connection: RTCPeerConnectionState;
  /** No voice link came up with this peer (a device that only chats or reports positions, or a failed one). */
  noVoice: boolean;
  /** What this peer is heard through (null until its audio arrives). */
  stream: MediaStream | null;
}

/**
 * Where a room's received voice plays when the page mixes it itself (the dispatch console: a gain per channel):
 * the transport hands each received stream here instead of playing it on its own.
 */
export interface AudioOutput {
  /** Plays this stream (a peer's, or the media server's mix) through the output, in place of an earlier one. */
  attach(id: string, stream: MediaStream): void;
  detach(id: string): void;
}

/**
 * Why the voice cannot flow now: the media server does not answer (`serverUnreachable`), this device could
 * not open a path to it (`noRoute`: the network blocks it and no relay carried it), or the channel goes peer
 * to peer because no media server answers (`serverDown`).
 */
export type LinkProblem = 'serverUnreachable' | 'noRoute' | 'serverDown';

/** What the connections are made with (ICE servers are renewed while the room lives: TURN credentials expire). */
export interface IceSettings {
  iceServers: RTCIceServer[];
  iceTransportPolicy?: RTCIceTransportPolicy;
}

export interface VoiceTransport {
  readonly kind: 'mesh' | 'server';
  /** Why the voice cannot flow now (null: it does, or it is being set up for the first time). */
  problem(): LinkProblem | null;
  /** New ICE settings (renewed TURN credentials): used from now on, without dropping any connection. */
  configure(ice: IceSettings): void;
  /**
   * The channel's media starts: `local` is what this page sends (null: it only listens). Call `present` for
   * the peers there.
   */
  join(local: MediaStream | null): void;
  /** Peers the roster says are there (`asNewcomer`: this page just joined and connects to them). */
  present(peers: RoomPeer[], asNewcomer: boolean): void;
  /** A peer left the channel. */
  gone(peerId: string): void;
  /** The server answered this page's join of the channel (first time, or after a reconnection). */
  channelJoined(): void;
  /** This page talks (its microphone is heard) or stops. */
  setTalking(on: boolean): void;
  /** A gesture happened: remote audio may start playing if the browser held it back. */
  resumePlayback(): void;
  /** The link to the server dropped: every link is dropped too (the peers see this page leave). */
  reset(): void;
  /** The channel's media ends: every connection closes. */
  leave(): void;
  links(): VoiceLink[];
  /** The connection that carries a peer's voice, for statistics (diagnostics.ts). */
  connectionOf(peerId: string): RTCPeerConnection | null;
  /** Puts a new microphone track in place of the old one, without renegotiation. */
  replaceMicTrack(
    local: MediaStream | null,
    how: { enabled: boolean; take: () => Promise<MediaStreamTrack | null> },
  ): Promise<boolean>;
  /** Called on every change of the links. */
  onChange(listener: () => void): () => void;
}
