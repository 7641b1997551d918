/** What a voice room shows (its snapshot for React) and what it is built with. */
import type { ClientToServerEvents, ServerToClientEvents } from '@talkgroup/protocol';
import type { Socket } from 'socket.io-client';
import type { MediaProblem } from './localMedia.ts';
import type { TransmissionRecorder } from './recorder.ts';

export type RoomSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface PeerState {
  /** The peer's socket id. */
  id: string;
  name: string;
  userId: number | null;
  connection: RTCPeerConnectionState;
  /** No voice link came up with this peer: a device that only chats or reports positions, or a failed one. */
  noVoice: boolean;
  stream: MediaStream | null;
  talking: boolean;
}

export interface VoiceRoomState {
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
  /** Shown to the others (join_room name). */
  name: string;
  iceServers: RTCIceServer[];
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
