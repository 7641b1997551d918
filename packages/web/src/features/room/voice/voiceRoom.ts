/**
 * The voice room of one channel: a WebRTC mesh signalled over Socket.IO (spec section 4, voice room).
 *
 * - The local microphone is taken once, before any press, with its track disabled, and its sender is
 *   negotiated at join: a press only flips `track.enabled`, so talking starts without any negotiation
 *   (push-to-talk latency). `sender.replaceTrack(track)` on the press (and `null` on the release) was
 *   measured too (`npm run bench:ptt -- --variants`): never faster (1.16x and 1.26x the enabled track's
 *   press-to-sound at p50), and after the silent gaps some receivers' jitter buffers grew to 600-840 ms;
 *   DTX (opusSettings.ts) gives the quiet idle link it would have been for.
 * - Each local description asks for Opus with DTX and 10 ms frames (opusSettings.ts).
 * - The newcomer makes the offers: it receives `all_users` (the peers already there) and offers to each;
 *   the others answer on `getOffer`. Candidates are relayed both ways and queued until the remote
 *   description is set.
 * - A media failure (no microphone, permission refused) is kept in the state for the page to show; the
 *   room still joins receive-only so the user hears the others and the rest of the room works.
 * - It never gives up: after a reconnection (a new socket id) it joins again as the newcomer; a connection
 *   that fails, or stays disconnected, is started afresh without leaving the room; a peer whose voice link
 *   never comes up (a device that only chats or reports positions) is shown as such. Tones mark a lost and
 *   a restored link.
 *
 * Framework-free on purpose: React reads it through subscribe/getSnapshot (useSyncExternalStore).
 */
import type { RoomPeer, ServerToClientEvents } from '@talkgroup/protocol';
import { playLinkTone } from './linkTones.ts';
import { type MediaProblem, openLocalMedia, replaceMicTrack } from './localMedia.ts';
import { MicStateReporter } from './micStateReporter.ts';
import {
  addCandidate,
  addLocalTracks,
  closePeer,
  flushCandidates,
  type Peer,
  peerState,
  scheduleRestart,
  setLocalDescription,
  wirePeer,
} from './peer.ts';
import { TalkControl } from './talkControl.ts';
import { type RoomSocket, SnapshotSource, type VoiceRoomOptions, type VoiceRoomState } from './voiceRoomState.ts';

export type { MediaProblem } from './localMedia.ts';
export { classifyMediaError } from './localMedia.ts';
export type { PeerState, RoomSocket, VoiceRoomOptions, VoiceRoomState } from './voiceRoomState.ts';

export class VoiceRoom extends SnapshotSource<VoiceRoomState> {
  private readonly options: VoiceRoomOptions;
  private readonly socket: RoomSocket;
  private readonly peers = new Map<string, Peer>();
  /** Peers announced by 'user joined' before their offer came: their name and user id. */
  private readonly announced = new Map<string, RoomPeer>();
  /** Mic states heard for sockets not yet connected as peers. */
  private readonly talkingBySocket = new Map<string, boolean>();
  private localStream: MediaStream | null = null;
  private readonly ptt: TalkControl;
  private micReady = false;
  private joined = false;
  /** The link dropped after a join; cleared when the server answers the join again (tones, banner). */
  private linkLost = false;
  private closed = false;
  private mediaProblem: MediaProblem | null = null;
  private readonly reporter: MicStateReporter | null;

  constructor(options: VoiceRoomOptions) {
    super();
    this.options = options;
    this.socket = options.socket;
    this.ptt = new TalkControl({
      socket: this.socket,
      name: options.room,
      track: () => this.localAudioTrack(),
      tone: (tone) => {
        if (options.linkTones !== false) playLinkTone(tone);
      },
      pressed: () => {
        // The page may be opened without a gesture (user call view): a press is one, so playback can start.
        for (const peer of this.peers.values()) void peer.audio?.play().catch(() => {});
      },
      micChanged: () => {
        // The page first: the HTTP report (a fetch started here) can wait a moment.
        this.changed();
        void this.reporter?.report();
      },
      changed: () => this.changed(),
      isOpen: () => !this.closed,
      recorder: options.recorder,
    });
    this.reporter = options.reportMicState
      ? new MicStateReporter(
          options.reportMicState,
          () => this.ptt.micOn,
          () => this.ptt.correct(),
        )
      : null;
    this.publish(this.buildSnapshot());
  }

  private changed(): void {
    if (!this.closed) this.publish(this.buildSnapshot());
  }

  private buildSnapshot(): VoiceRoomState {
    return {
      joined: this.joined,
      reconnecting: this.linkLost,
      selfId: this.socket.id ?? null,
      micReady: this.micReady,
      micOn: this.ptt.micOn,
      floorHolder: this.ptt.floorHolder,
      cameraOn: this.localStream?.getVideoTracks().some((track) => track.enabled) ?? false,
      mediaProblem: this.mediaProblem,
      localStream: this.localStream,
      peers: [...this.peers.values()].map(peerState),
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
    for (const [event, listener] of this.listenersOnSocket()) this.socket.on(event, listener);
    if (this.socket.connected) this.join();
    this.changed();
  }

  /** Leaves the room: tells the others, closes every connection and releases the microphone. */
  leave(): void {
    if (this.closed) return;
    if (this.ptt.micOn) this.ptt.talk(false);
    if (this.joined && this.socket.connected) this.socket.emit('leave_room', { room: this.options.room });
    for (const [event, listener] of this.listenersOnSocket()) this.socket.off(event, listener);
    for (const id of [...this.peers.keys()]) this.removePeer(id);
    this.stopLocalTracks();
    this.joined = false;
    this.closed = true;
    this.reporter?.stop();
    this.unsubscribeAll();
  }

  /** What the room listens to on its socket, while it is open. */
  private listenersOnSocket(): Array<
    [keyof ServerToClientEvents | 'connect' | 'disconnect', (...args: never[]) => void]
  > {
    return [
      ['all_users', this.onAllUsers],
      ['user joined', this.onUserJoined],
      ['getOffer', this.onGetOffer],
      ['getAnswer', this.onGetAnswer],
      ['getCandidate', this.onGetCandidate],
      ['user_exit', this.onUserExit],
      ['onMicStateChanged', this.onMicStateChanged],
      ['floor_revoked', this.ptt.revoked],
      ['floor_granted', this.ptt.granted],
      ['connect', this.onConnect],
      ['disconnect', this.onDisconnect],
    ];
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
    if (this.joined && !this.linkLost) {
      this.linkLost = true;
      if (this.options.linkTones !== false) playLinkTone('lost');
    }
    this.joined = false;
    // The server frees the floor and ends the burst of a lost socket; the HTTP report keeps the state right.
    this.ptt.lost();
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

  /** Push-to-talk: see TalkControl (a press asks for the floor, a release gives it back). */
  setMicEnabled(on: boolean): void {
    if (!this.closed) this.ptt.press(on);
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
    const replaced = await replaceMicTrack(this.localStream, [...this.peers.values()], {
      options: this.mediaOptions(),
      enabled: this.ptt.micOn,
      stillWanted: () => !this.closed,
    });
    if (replaced) this.changed();
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
      noVoice: false,
      timers: [],
      restarts: 0,
    };
    this.peers.set(id, peer);
    wirePeer(peer, {
      isCurrent: () => this.peers.get(id) === peer,
      restart: () => this.restartPeer(peer),
      changed: () => this.changed(),
      sendCandidate: (candidate) =>
        this.socket.emit('candidate', { candidate, candidateSendID: this.socket.id ?? '', candidateReceiveID: id }),
    });
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

  /** A connection that failed (or stayed disconnected) is replaced by a new one, offered from this side. */
  private restartPeer(peer: Peer): void {
    scheduleRestart(peer, () => {
      if (this.closed || this.peers.get(peer.id) !== peer || !this.joined) return;
      this.removePeer(peer.id);
      const fresh = this.createPeer(peer.id, peer.name, peer.userId);
      fresh.restarts = peer.restarts + 1;
      addLocalTracks(fresh, this.localStream, this.options.video ?? false, true);
      void this.offer(fresh);
    });
  }

  private readonly onAllUsers = (peers: RoomPeer[]): void => {
    // The server's answer to join_room: back in the room after a lost link.
    if (this.linkLost) {
      this.linkLost = false;
      if (this.options.linkTones !== false) playLinkTone('back');
      this.changed();
    }
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
      const offer = await setLocalDescription(peer.pc, await peer.pc.createOffer());
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
      const answer = await setLocalDescription(peer.pc, await peer.pc.createAnswer());
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
    // A change only: the same state comes twice (the socket's grant, then the talker's HTTP report), and each
    // snapshot redraws the page.
    if (peer && peer.talking !== payload.micState) {
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
