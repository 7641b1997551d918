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
import type { RoomPeer } from '@talkgroup/protocol';
import { type MediaProblem, mediaConstraints, openLocalMedia } from './localMedia.ts';
import { MicStateReporter } from './micStateReporter.ts';
import { addCandidate, addLocalTracks, closePeer, flushCandidates, type Peer, playPeerAudio } from './peer.ts';
import type { RoomSocket, VoiceRoomOptions, VoiceRoomState } from './voiceRoomState.ts';

export type { MediaProblem } from './localMedia.ts';
export { classifyMediaError } from './localMedia.ts';
export type { PeerState, RoomSocket, VoiceRoomOptions, VoiceRoomState } from './voiceRoomState.ts';

type Listener = () => void;

export class VoiceRoom {
  private readonly options: VoiceRoomOptions;
  private readonly socket: RoomSocket;
  private readonly peers = new Map<string, Peer>();
  /** Peers announced by 'user joined' before their offer came: their name and user id. */
  private readonly announced = new Map<string, RoomPeer>();
  /** Mic states heard for sockets not yet connected as peers. */
  private readonly talkingBySocket = new Map<string, boolean>();
  private readonly listeners = new Set<Listener>();
  private localStream: MediaStream | null = null;
  private micOn = false;
  private micReady = false;
  private joined = false;
  private closed = false;
  private mediaProblem: MediaProblem | null = null;
  private snapshot: VoiceRoomState;
  private readonly reporter: MicStateReporter | null;

  constructor(options: VoiceRoomOptions) {
    this.options = options;
    this.socket = options.socket;
    this.reporter = options.reportMicState
      ? new MicStateReporter(
          options.reportMicState,
          () => this.micOn,
          () => this.emitMicState(),
        )
      : null;
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
    this.joined = false;
    this.closed = true;
    this.reporter?.stop();
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
      void this.reporter?.report();
    }
    this.changed();
  };

  // --- Local media ----------------------------------------------------------------------------------

  private mediaOptions() {
    return { video: this.options.video ?? false, voiceProcessing: this.options.voiceProcessing ?? true };
  }

  private async acquireMedia(): Promise<void> {
    const { stream, problem } = await openLocalMedia(this.mediaOptions());
    this.localStream = stream;
    this.micReady = (stream?.getAudioTracks().length ?? 0) > 0;
    this.mediaProblem = problem;
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
    // The page may be opened without a gesture (user call view): a press is one, so playback can start.
    for (const peer of this.peers.values()) void peer.audio?.play().catch(() => {});
    this.emitMicState();
    void this.reporter?.report();
    this.changed();
  }

  private emitMicState(): void {
    if (this.joined && this.socket.connected)
      this.socket.emit('micStateChange', { id: this.socket.id, micState: this.micOn, room: this.options.room });
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
    const fresh = await navigator.mediaDevices.getUserMedia({ audio: mediaConstraints(this.mediaOptions()).audio });
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
      if (event.track.kind === 'audio') playPeerAudio(peer, stream);
      this.changed();
    };
    this.changed();
    return peer;
  }

  private removePeer(id: string): void {
    const peer = this.peers.get(id);
    if (!peer) return;
    this.peers.delete(id);
    closePeer(peer);
    this.changed();
  }

  private readonly onAllUsers = (peers: RoomPeer[]): void => {
    // We are the newcomer: offer to everyone already there.
    for (const remote of peers) {
      if (remote.id === this.socket.id || this.peers.has(remote.id)) continue;
      const peer = this.createPeer(remote.id, remote.name, remote.userId);
      addLocalTracks(peer, this.localStream, this.options.video ?? false, true);
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
      addLocalTracks(peer, this.localStream, this.options.video ?? false, false);
      await flushCandidates(peer);
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
      await flushCandidates(peer);
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
    await addCandidate(peer, candidate);
  };

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

  // --- Read access -----------------------------------------------------------------------------------

  /** The connection with a peer, for reading its statistics (the opt-in diagnostics, see diagnostics.ts). */
  connectionOf(peerId: string): RTCPeerConnection | null {
    return this.peers.get(peerId)?.pc ?? null;
  }
}
