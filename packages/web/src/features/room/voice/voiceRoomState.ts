/** What a voice room shows (its snapshot for React) and what it is built with. */
import type { ClientToServerEvents, ServerToClientEvents } from '@talkgroup/protocol';
import type { Socket } from 'socket.io-client';
import type { MediaProblem } from './localMedia.ts';

export type RoomSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface PeerState {
  /** The peer's socket id. */
  id: string;
  name: string;
  userId: number | null;
  connection: RTCPeerConnectionState;
  stream: MediaStream | null;
  talking: boolean;
}

export interface VoiceRoomState {
  /** join_room was sent on a connected socket. */
  joined: boolean;
  selfId: string | null;
  /** The local microphone is ready (taken, track disabled until a press). */
  micReady: boolean;
  micOn: boolean;
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
}
