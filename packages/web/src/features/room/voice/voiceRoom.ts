/**
 * The voice room of one channel: a WebRTC mesh signalled over Socket.IO (spec section 4, voice room).
 *
 * - The local microphone is taken once, before any press, with its track disabled: a press only flips
 *   `track.enabled`, so talking starts without any negotiation (push-to-talk latency).
 * - The newcomer makes the offers: it receives `all_users` (the peers already there) and offers to each;
 *   the others answer on `getOffer`. Candidates are relayed both ways and queued until the remote
 *   description is set.
 * - A media failure (no microphone, permission refused) is kept in the state for the page to show; the
 *   room still joins receive-only so the user hears the others and the rest of the room works.
 *
 * Framework-free on purpose: React reads it through subscribe/getSnapshot (useSyncExternalStore).
 */
import type { ClientToServerEvents, RoomPeer, ServerToClientEvents } from '@talkgroup/protocol';
import type { Socket } from 'socket.io-client';
import { LevelMeter } from './levelMeter.ts';

export type RoomSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Why there is no local microphone: each has its own sentence in the page. */
export type MediaProblem = 'denied' | 'notFound' | 'busy' | 'insecure' | 'failed';

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

interface Peer {
  id: string;
  name: string;
  userId: number | null;
  pc: RTCPeerConnection;
  stream: MediaStream | null;
  talking: boolean;
  /** Candidates that arrived before the remote description. */
  pendingCandidates: RTCIceCandidateInit[];
  audio: HTMLAudioElement | null;
}

type Listener = () => void;

export function classifyMediaError(error: unknown): MediaProblem {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return 'denied';
  if (name === 'NotFoundError' || name === 'DevicesNotFoundError' || name === 'OverconstrainedError') return 'notFound';
  if (name === 'NotReadableError' || name === 'TrackStartError' || name === 'AbortError') return 'busy';
  return 'failed';
}

export class VoiceRoom {
  private readonly options: VoiceRoomOptions;
  private readonly socket: RoomSocket;
  private readonly peers = new Map<string, Peer>();
  /** Peers announced by 'user joined' before their offer came: their name and user id. */
  private readonly announced = new Map<string, RoomPeer>();
  /** Mic states heard for sockets not yet connected as peers. */
  private readonly talkingBySocket = new Map<string, boolean>();
  private readonly listeners = new Set<Listener>();
  private readonly meter = new LevelMeter();
  private localStream: MediaStream | null = null;
  private micOn = false;
  private micReady = false;
  private joined = false;
  private closed = false;
  private mediaProblem: MediaProblem | null = null;
  private snapshot: VoiceRoomState;
  /** When the track was last enabled, in epoch milliseconds with sub-millisecond precision (bench). */
  lastMicOnAt = 0;
  lastMicOffAt = 0;
  private reporting = false;
  /** The state the server last heard over HTTP. */
  private reportedMicState = false;

  constructor(options: VoiceRoomOptions) {
    this.options = options;
    this.socket = options.socket;
    this.snapshot = this.buildSnapshot();
  }

  // --- React bridge ---------------------------------------------------------------------------------

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): VoiceRoomState => this.snapshot;

  private changed(): void {
    if (this.closed) return;
    this.snapshot = this.buildSnapshot();
    for (const listener of this.listeners) listener();
  }

  private buildSnapshot(): VoiceRoomState {
    return {
      joined: this.joined,
      selfId: this.socket.id ?? null,
      micReady: this.micReady,
      micOn: this.micOn,
      cameraOn: this.localStream?.getVideoTracks().some((track) => track.enabled) ?? false,
      mediaProblem: this.mediaProblem,
      localStream: this.localStream,
      peers: [...this.peers.values()].map((peer) => ({
        id: peer.id,
        name: peer.name,
        userId: peer.userId,
        connection: peer.pc.connectionState,
        stream: peer.stream,
        talking: peer.talking,
      })),
    };
  }

  // --- Life cycle -----------------------------------------------------------------------------------

  /** Takes the microphone (muted), then joins the room. Resolves once join_room is sent or queued. */
  async start(): Promise<void> {
    await this.acquireMedia();
    if (this.closed) {
      this.stopLocalTracks();
      return;
    }
    this.socket.on('all_users', this.onAllUsers);
    this.socket.on('user joined', this.onUserJoined);
    this.socket.on('getOffer', this.onGetOffer);
    this.socket.on('getAnswer', this.onGetAnswer);
    this.socket.on('getCandidate', this.onGetCandidate);
    this.socket.on('user_exit', this.onUserExit);
    this.socket.on('onMicStateChanged', this.onMicStateChanged);
    this.socket.on('connect', this.onConnect);
    this.socket.on('disconnect', this.onDisconnect);
    if (this.socket.connected) this.join();
    this.changed();
  }

  /** Leaves the room: tells the others, closes every connection and releases the microphone. */
  leave(): void {
    if (this.closed) return;
    if (this.micOn) this.setMicEnabled(false);
    if (this.joined && this.socket.connected) this.socket.emit('leave_room', { room: this.options.room });
    this.socket.off('all_users', this.onAllUsers);
    this.socket.off('user joined', this.onUserJoined);
    this.socket.off('getOffer', this.onGetOffer);
    this.socket.off('getAnswer', this.onGetAnswer);
    this.socket.off('getCandidate', this.onGetCandidate);
    this.socket.off('user_exit', this.onUserExit);
    this.socket.off('onMicStateChanged', this.onMicStateChanged);
    this.socket.off('connect', this.onConnect);
    this.socket.off('disconnect', this.onDisconnect);
    for (const id of [...this.peers.keys()]) this.removePeer(id);
    this.stopLocalTracks();
    this.meter.close();
    this.joined = false;
    this.closed = true;
    this.listeners.clear();
  }

  private join(): void {
    this.joined = true;
    this.socket.emit('join_room', { room: this.options.room, name: this.options.name });
    this.changed();
  }

  private readonly onConnect = (): void => {
    // A reconnection is a new socket id: the others saw us leave, so we join again as the newcomer.
    for (const id of [...this.peers.keys()]) this.removePeer(id);
    this.join();
  };

  private readonly onDisconnect = (): void => {
    this.joined = false;
    if (this.micOn) {
      // The server ends the burst of a lost socket; the HTTP report keeps the stored state right.
      this.micOn = false;
      for (const track of this.localStream?.getAudioTracks() ?? []) track.enabled = false;
      void this.report();
    }
    this.changed();
  };

  // --- Local media ----------------------------------------------------------------------------------

  private mediaConstraints(): MediaStreamConstraints {
    const processing = this.options.voiceProcessing ?? true;
    return {
      audio: { echoCancellation: processing, noiseSuppression: processing, autoGainControl: processing },
      video: this.options.video ? { width: { ideal: 240 }, height: { ideal: 240 } } : false,
    };
  }

  private async acquireMedia(): Promise<void> {
    if (!navigator.mediaDevices?.getUserMedia) {
      this.mediaProblem = window.isSecureContext ? 'failed' : 'insecure';
      this.changed();
      return;
    }
    try {
      let stream: MediaStream;
      try {
        stream = await navigator.mediaDevices.getUserMedia(this.mediaConstraints());
      } catch (error) {
        // The join view still works audio-only when there is no camera.
        if (!this.options.video || classifyMediaError(error) === 'denied') throw error;
        stream = await navigator.mediaDevices.getUserMedia({ ...this.mediaConstraints(), video: false });
      }
      for (const track of stream.getAudioTracks()) track.enabled = false;
      this.localStream = stream;
      this.micReady = stream.getAudioTracks().length > 0;
      this.mediaProblem = this.micReady ? null : 'notFound';
    } catch (error) {
      this.mediaProblem = classifyMediaError(error);
      console.warn('Talkgroup: no local media', error);
    }
    this.changed();
  }

  private localAudioTrack(): MediaStreamTrack | undefined {
    return this.localStream?.getAudioTracks()[0];
  }

  private stopLocalTracks(): void {
    for (const track of this.localStream?.getTracks() ?? []) track.stop();
    this.localStream = null;
    this.micReady = false;
  }

  /** Push-to-talk: enables or disables the local audio track and reports the change. */
  setMicEnabled(on: boolean): void {
    if (this.closed) return;
    const track = this.localAudioTrack();
    if (!track || this.micOn === on) return;
    track.enabled = on;
    this.micOn = on;
    const now = performance.timeOrigin + performance.now();
    if (on) this.lastMicOnAt = now;
    else this.lastMicOffAt = now;
    // The page may be opened without a gesture (user call view): a press is one, so playback can start.
    this.meter.resume();
    for (const peer of this.peers.values()) void peer.audio?.play().catch(() => {});
    this.emitMicState();
    void this.report();
    this.changed();
  }

  private emitMicState(): void {
    if (this.joined && this.socket.connected)
      this.socket.emit('micStateChange', { id: this.socket.id, micState: this.micOn, room: this.options.room });
  }

  private async report(): Promise<void> {
    const send = this.options.reportMicState;
    if (!send || this.reporting) return;
    this.reporting = true;
    try {
      while (!this.closed && this.reportedMicState !== this.micOn) {
        const state = this.micOn;
        try {
          await send(state);
        } catch (error) {
          console.warn('Talkgroup: mic state not reported', error);
        }
        this.reportedMicState = state;
        // The HTTP report may have overtaken a later socket change: the socket has the last word.
        if (state !== this.micOn) this.emitMicState();
      }
    } finally {
      this.reporting = false;
    }
  }

  /** The join view's camera button: the track stays, so turning it back on needs no negotiation. */
  setCameraEnabled(on: boolean): void {
    for (const track of this.localStream?.getVideoTracks() ?? []) track.enabled = on;
    this.changed();
  }

  /** Takes the microphone again with or without voice processing; the connections keep going. */
  async setVoiceProcessing(processing: boolean): Promise<void> {
    if ((this.options.voiceProcessing ?? true) === processing) return;
    this.options.voiceProcessing = processing;
    const old = this.localAudioTrack();
    if (!old || !navigator.mediaDevices?.getUserMedia) return;
    const fresh = await navigator.mediaDevices.getUserMedia({ audio: this.mediaConstraints().audio });
    const track = fresh.getAudioTracks()[0];
    if (!track || this.closed || !this.localStream) {
      for (const t of fresh.getTracks()) t.stop();
      return;
    }
    track.enabled = this.micOn;
    for (const peer of this.peers.values()) {
      for (const sender of peer.pc.getSenders()) if (sender.track === old) await sender.replaceTrack(track);
    }
    this.localStream.removeTrack(old);
    old.stop();
    this.localStream.addTrack(track);
    this.changed();
  }

  // --- Peers ----------------------------------------------------------------------------------------

  private createPeer(id: string, name: string, userId: number | null): Peer {
    const existing = this.peers.get(id);
    if (existing) return existing;
    const pc = new RTCPeerConnection({ iceServers: this.options.iceServers });
    const peer: Peer = {
      id,
      name,
      userId,
      pc,
      stream: null,
      talking: this.talkingBySocket.get(id) ?? false,
      pendingCandidates: [],
      audio: null,
    };
    this.peers.set(id, peer);
    pc.onicecandidate = (event) => {
      if (!event.candidate || this.peers.get(id) !== peer) return;
      this.socket.emit('candidate', {
        candidate: event.candidate.toJSON(),
        candidateSendID: this.socket.id ?? '',
        candidateReceiveID: id,
      });
    };
    pc.onconnectionstatechange = () => this.changed();
    pc.ontrack = (event) => {
      if (this.peers.get(id) !== peer) return;
      const stream = event.streams[0] ?? peer.stream ?? new MediaStream();
      if (!stream.getTracks().includes(event.track)) stream.addTrack(event.track);
      peer.stream = stream;
      if (event.track.kind === 'audio') this.playPeerAudio(peer, stream);
      this.changed();
    };
    this.changed();
    return peer;
  }

  /** Remote audio plays through a detached audio element; Chrome only feeds Web Audio from a remote
   * stream that a media element also plays, so the level meter needs it too. */
  private playPeerAudio(peer: Peer, stream: MediaStream): void {
    if (!peer.audio) {
      peer.audio = new Audio();
      peer.audio.autoplay = true;
    }
    peer.audio.srcObject = stream;
    void peer.audio.play().catch(() => {
      // Autoplay refused until the first gesture: the next press resumes it.
    });
    this.meter.watch(peer.id, stream);
  }

  private addLocalTracks(peer: Peer, asOfferer: boolean): void {
    const stream = this.localStream;
    const kinds = this.options.video ? (['audio', 'video'] as const) : (['audio'] as const);
    for (const kind of kinds) {
      const track = stream?.getTracks().find((t) => t.kind === kind);
      if (track && stream) peer.pc.addTrack(track, stream);
      else if (asOfferer) peer.pc.addTransceiver(kind, { direction: 'recvonly' });
    }
  }

  private removePeer(id: string): void {
    const peer = this.peers.get(id);
    if (!peer) return;
    this.peers.delete(id);
    peer.pc.onicecandidate = null;
    peer.pc.ontrack = null;
    peer.pc.onconnectionstatechange = null;
    peer.pc.close();
    if (peer.audio) {
      peer.audio.pause();
      peer.audio.srcObject = null;
    }
    this.meter.unwatch(id);
    this.changed();
  }

  private readonly onAllUsers = (peers: RoomPeer[]): void => {
    // We are the newcomer: offer to everyone already there.
    for (const remote of peers) {
      if (remote.id === this.socket.id || this.peers.has(remote.id)) continue;
      const peer = this.createPeer(remote.id, remote.name, remote.userId);
      this.addLocalTracks(peer, true);
      void this.offer(peer);
    }
  };

  private async offer(peer: Peer): Promise<void> {
    try {
      const offer = await peer.pc.createOffer();
      await peer.pc.setLocalDescription(offer);
      this.socket.emit('offer', {
        sdp: peer.pc.localDescription?.toJSON() ?? offer,
        offerSendID: this.socket.id ?? '',
        offerSendName: this.options.name,
        offerReceiveID: peer.id,
      });
    } catch (error) {
      console.warn('Talkgroup: offer failed', peer.id, error);
    }
  }

  private readonly onUserJoined = (remote: RoomPeer): void => {
    if (remote.id === this.socket.id) return;
    this.announced.set(remote.id, remote);
    const peer = this.peers.get(remote.id);
    if (peer) {
      peer.name = remote.name || peer.name;
      peer.userId = remote.userId;
      this.changed();
    }
  };

  private readonly onGetOffer = async (payload: {
    sdp: unknown;
    offerSendID: string;
    offerSendName: string;
  }): Promise<void> => {
    const { offerSendID: id } = payload;
    if (!id || id === this.socket.id) return;
    const existing = this.peers.get(id);
    if (existing) {
      // Two sockets that joined at once may both offer. The one with the greater socket id gives way and
      // answers; the other ignores the offer it got and waits for the answer to its own.
      const collision = existing.pc.signalingState === 'have-local-offer';
      if (collision && (this.socket.id ?? '') < id) return;
      // Otherwise (giving way, or the peer rejoined): start afresh.
      this.removePeer(id);
    }
    const known = this.announced.get(id);
    const peer = this.createPeer(id, payload.offerSendName || known?.name || '', known?.userId ?? null);
    try {
      await peer.pc.setRemoteDescription(payload.sdp as RTCSessionDescriptionInit);
      this.addLocalTracks(peer, false);
      await this.flushCandidates(peer);
      const answer = await peer.pc.createAnswer();
      await peer.pc.setLocalDescription(answer);
      this.socket.emit('answer', {
        sdp: peer.pc.localDescription?.toJSON() ?? answer,
        answerSendID: this.socket.id ?? '',
        answerReceiveID: id,
      });
    } catch (error) {
      console.warn('Talkgroup: answer failed', id, error);
    }
  };

  private readonly onGetAnswer = async (payload: { sdp: unknown; answerSendID: string }): Promise<void> => {
    const peer = this.peers.get(payload.answerSendID);
    if (peer?.pc.signalingState !== 'have-local-offer') return;
    try {
      await peer.pc.setRemoteDescription(payload.sdp as RTCSessionDescriptionInit);
      await this.flushCandidates(peer);
    } catch (error) {
      console.warn('Talkgroup: answer not applied', peer.id, error);
    }
  };

  private readonly onGetCandidate = async (payload: { candidate: unknown; candidateSendID: string }): Promise<void> => {
    const peer = this.peers.get(payload.candidateSendID);
    if (!peer || !payload.candidate) return;
    const candidate = payload.candidate as RTCIceCandidateInit;
    if (!peer.pc.remoteDescription) {
      peer.pendingCandidates.push(candidate);
      return;
    }
    await peer.pc.addIceCandidate(candidate).catch((error) => console.warn('Talkgroup: bad candidate', error));
  };

  private async flushCandidates(peer: Peer): Promise<void> {
    const pending = peer.pendingCandidates.splice(0);
    for (const candidate of pending) {
      await peer.pc.addIceCandidate(candidate).catch((error) => console.warn('Talkgroup: bad candidate', error));
    }
  }

  private readonly onUserExit = (payload: { id: string }): void => {
    this.announced.delete(payload.id);
    this.talkingBySocket.delete(payload.id);
    this.removePeer(payload.id);
  };

  private readonly onMicStateChanged = (payload: { id: string; micState: boolean; room: string }): void => {
    if (payload.room && payload.room !== this.options.room) return;
    this.talkingBySocket.set(payload.id, payload.micState);
    const peer = this.peers.get(payload.id);
    if (peer) {
      peer.talking = payload.micState;
      this.changed();
    }
  };

  // --- Measurements (debug hook and bench) -----------------------------------------------------------

  /** Peak level (0..1) of each peer's received audio right now. */
  levels(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const id of this.peers.keys()) out[id] = this.meter.level(id);
    return out;
  }

  /**
   * The audio level (0..1) of the last RTP packets received from a peer, as the receiver reports it
   * (before the jitter buffer's playout and Web Audio): the bench's point between network and ear.
   */
  rtpLevel(peerId: string): number {
    const peer = this.peers.get(peerId);
    if (!peer) return 0;
    let level = 0;
    for (const receiver of peer.pc.getReceivers()) {
      if (receiver.track.kind !== 'audio') continue;
      for (const source of receiver.getSynchronizationSources()) level = Math.max(level, source.audioLevel ?? 0);
    }
    return level;
  }

  /** Resolves with the epoch time (ms) at which a peer's level first crosses `threshold`, or null. */
  waitForLevel(peerId: string, threshold: number, timeoutMs: number, above = true): Promise<number | null> {
    return this.meter.waitFor(peerId, threshold, timeoutMs, above);
  }

  /** Inbound audio statistics of one peer (bytes and packets received, audio level). */
  async inboundAudio(peerId: string): Promise<{ bytesReceived: number; packetsReceived: number } | null> {
    const peer = this.peers.get(peerId);
    if (!peer) return null;
    const report = await peer.pc.getStats();
    let bytesReceived = 0;
    let packetsReceived = 0;
    report.forEach((entry) => {
      if (entry.type === 'inbound-rtp' && entry.kind === 'audio') {
        bytesReceived += entry.bytesReceived ?? 0;
        packetsReceived += entry.packetsReceived ?? 0;
      }
    });
    return { bytesReceived, packetsReceived };
  }
}
