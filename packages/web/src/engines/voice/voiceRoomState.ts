/** What a voice room shows (its snapshot for React) and what it is built with. */
import type { ClientToServerEvents, ParticipationMode, RoomPeer, ServerToClientEvents } from '@talkgroup/protocol';
import type { Socket } from 'socket.io-client';
import type { MediaProblem } from './localMedia.ts';
import type { TransmissionRecorder } from './recorder.ts';
import type { FloorWait } from './talkControl.ts';
import type { AudioOutput, LinkProblem, VoiceLink, VoiceTransport } from './voiceTransport.ts';

export type RoomSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A peer as the room shows it: its voice link (the transport's), its name and whether it talks. */
export interface PeerState extends VoiceLink {
  name: string;
  userId: number | null;
  talking: boolean;
  /** A SIP gateway's call (a radio or a desk phone, issue 51): heard through the media server, hung up by its Call-ID. */
  gateway?: RoomPeer['gateway'];
}

export interface VoiceRoomState {
  /** The channel's rtcSession. */
  room: string;
  /** Talking (push-to-talk) or only listening. */
  mode: ParticipationMode;
  /** How the voice travels: peer to peer, or through the server. */
  transport: VoiceTransport['kind'];
  /** Why the voice cannot flow now (the media server, the network), for the page to say. */
  linkProblem: LinkProblem | null;
  /** join_room was sent on a connected socket. */
  joined: boolean;
  /** The link to the server dropped after a join and the room is not joined again yet. */
  reconnecting: boolean;
  selfId: string | null;
  /** The local microphone is ready (taken, track disabled until a press). */
  micReady: boolean;
  micOn: boolean;
  /** The press was refused: this person holds the channel's floor. */
  floorHolder: string | null;
  /** Issue 59: the press waiting in the floor queue, the floor offered to it, or the talk cut off by whom. */
  floorWait: FloorWait;
  /** The join view's camera: sending pictures (true) or black frames (false). */
  cameraOn: boolean;
  mediaProblem: MediaProblem | null;
  localStream: MediaStream | null;
  peers: PeerState[];
}

export interface VoiceRoomOptions {
  socket: RoomSocket;
  /** The channel's rtcSession. */
  room: string;
  /** Talk (default: push-to-talk, the microphone is taken) or only listen (nothing is taken or sent). */
  mode?: ParticipationMode;
  /** Shown to the others (join_room name). */
  name: string;
  iceServers: RTCIceServer[];
  /** `relay`: only paths through a TURN relay (the server's ICE_TRANSPORT_POLICY). */
  iceTransportPolicy?: RTCIceTransportPolicy;
  /** The join view: video at an ideal 240x240 as well as audio. */
  video?: boolean;
  /** Echo cancellation, noise suppression and automatic gain (on for people; tests turn it off). */
  voiceProcessing?: boolean;
  /**
   * Reports a mic change over HTTP (updateUserMicState/). Reports are sent one at a time and coalesced;
   * when one lands after the state changed again, the current state is sent over the socket once more,
   * so that a late HTTP "on" never leaves the others seeing someone talk who has let go.
   */
  reportMicState?: (on: boolean) => Promise<unknown>;
  /** Plays the tones of a lost and a restored link (default: yes). */
  linkTones?: boolean;
  /** Voice history: records each transmission (recorder.ts); must stay the same object for the room's life. */
  recorder?: TransmissionRecorder;
  /**
   * Where received voice plays, when the page mixes it itself (the dispatch console's gain per channel); the
   * same object for the room's life. Absent: each stream plays on an audio element of its own.
   */
  output?: AudioOutput;
}

/** React reads a framework-free object through useSyncExternalStore: subscribe, and the latest snapshot. */
export class SnapshotSource<T> {
  private readonly listeners = new Set<() => void>();
  private snapshot: T | undefined;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): T => this.snapshot as T;

  protected publish(snapshot: T): void {
    this.snapshot = snapshot;
    for (const listener of this.listeners) listener();
  }

  protected unsubscribeAll(): void {
    this.listeners.clear();
  }
}
