/**
 * The voice room of one channel (spec section 4, voice room): who is there and who talks (the roster), the
 * local microphone, and push-to-talk. How the voice travels is its transport's business (voiceTransport.ts:
 * the mesh today); its signalling goes over the page's socket (signalClient.ts), which a page in several
 * channels shares: one VoiceRoom, one transport per channel.
 *
 * - In `talk` mode the local microphone is taken once, before any press, with its track disabled; a press
 *   asks for the floor (talkControl.ts) and the transport lets the voice through once it is granted. In
 *   `listen` mode nothing is taken and nothing is sent.
 * - A media failure (no microphone, permission refused) is kept in the state for the page to show; the room
 *   still joins receive-only, so the user hears the others and the rest of the room works.
 * - It never gives up: after a reconnection (a new socket id) it joins again as the newcomer. Tones mark a
 *   lost and a restored link.
 *
 * Framework-free on purpose: React reads it through subscribe/getSnapshot (useSyncExternalStore).
 */
import type { JoinAnswer, RoomPeer, ServerToClientEvents } from '@talkgroup/protocol';
import { rosterEntry } from './gatewayPeer.ts';
import { playLinkTone } from './linkTones.ts';
import { type MediaProblem, openLocalMedia, takeMicTrack } from './localMedia.ts';
import { MeshTransport } from './meshTransport.ts';
import { MicStateReporter } from './micStateReporter.ts';
import type { TransmissionRecorder } from './recorder.ts';
import { ServerTransport } from './serverTransport.ts';
import { SignalClient } from './signalClient.ts';
import { type BroadcastRecording, TalkControl } from './talkControl.ts';
import { type PeerState, SnapshotSource, type VoiceRoomOptions, type VoiceRoomState } from './voiceRoomState.ts';
import type { IceSettings, VoiceTransport } from './voiceTransport.ts';

export type { MediaProblem } from './localMedia.ts';
export { classifyMediaError } from './localMedia.ts';
export type { PeerState, RoomSocket, VoiceRoomOptions, VoiceRoomState } from './voiceRoomState.ts';

export class VoiceRoom extends SnapshotSource<VoiceRoomState> {
  private readonly options: VoiceRoomOptions;
  private readonly signal: SignalClient;
  /** How the voice travels: the mesh until the server says (media_plane) the channel goes through it. */
  private transport: VoiceTransport;
  private stopTransport: () => void = () => {};
  private started = false;
  /**
   * Who is in the channel (by socket id, or `sip:` and its Call-ID for a gateway's call): their name and user id,
   * from the join, 'user joined' or an offer.
   */
  private readonly roster = new Map<string, Pick<RoomPeer, 'name' | 'userId' | 'mode' | 'gateway'>>();
  /** Mic states heard, by socket id (also for peers whose link is not up yet). */
  private readonly talkingBySocket = new Map<string, boolean>();
  private localStream: MediaStream | null = null;
  private readonly ptt: TalkControl;
  private micReady = false;
  private joined = false;
  /** The link dropped after a join; cleared when the server answers the join again (tones, banner). */
  private linkLost = false;
  /** The server answered this socket's join: the roster is this connection's. */
  private inChannel = false;
  /** The channel should go through the media server, which does not answer now (media_plane). */
  private fallback = false;
  private ice: IceSettings;
  private closed = false;
  private mediaProblem: MediaProblem | null = null;
  private readonly reporter: MicStateReporter | null;
  private readonly offs: Array<() => void> = [];

  constructor(options: VoiceRoomOptions) {
    super();
    this.options = options;
    this.ice = { iceServers: options.iceServers, iceTransportPolicy: options.iceTransportPolicy };
    this.signal = new SignalClient(options.socket, options.room);
    this.transport = this.makeTransport('mesh');
    this.ptt = new TalkControl({
      socket: options.socket,
      name: options.room,
      track: () => this.localAudioTrack(),
      talking: (on) => this.transport.setTalking(on),
      tone: (tone) => {
        if (options.linkTones !== false) playLinkTone(tone);
      },
      // The page may be opened without a gesture (user call view): a press is one, so playback can start.
      pressed: () => this.transport.resumePlayback(),
      micChanged: () => {
        // The page first: the HTTP report (a fetch started here) can wait a moment.
        this.changed();
        void this.reporter?.report();
      },
      changed: () => this.changed(),
      isOpen: () => !this.closed,
      recorder: options.recorder && this.recorderHere(options.recorder),
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

  private get listening(): boolean {
    return this.options.mode === 'listen';
  }

  private makeTransport(kind: VoiceTransport['kind']): VoiceTransport {
    const { options, signal } = this;
    const transport: VoiceTransport =
      kind === 'server'
        ? new ServerTransport({ signal, ...this.ice, output: options.output })
        : new MeshTransport({
            signal,
            name: options.name,
            ...this.ice,
            video: options.video ?? false,
            listenOnly: this.listening,
            offeredBy: (peerId, name) => {
              if (!this.roster.has(peerId)) this.roster.set(peerId, { name, userId: 0 });
            },
            output: options.output,
          });
    this.stopTransport = transport.onChange(() => this.changed());
    return transport;
  }

  /** What this page records and uploads (voice history): on the mesh only; the media server records its own. */
  private recorderHere(recorder: TransmissionRecorder): TransmissionRecorder {
    const here = () => this.transport.kind === 'mesh';
    return Object.assign(Object.create(recorder) as TransmissionRecorder, {
      // Every argument passed on: a wrapper that names them drops the next one added (an all call's channels).
      begin: (...args: Parameters<TransmissionRecorder['begin']>) => (here() ? recorder.begin(...args) : undefined),
      keep: (...args: Parameters<TransmissionRecorder['keep']>) => (here() ? recorder.keep(...args) : undefined),
      end: () => (here() ? recorder.end() : undefined),
      discard: () => recorder.discard(),
    });
  }

  private readonly onMediaPlane = (payload: { kind: VoiceTransport['kind']; fallback?: boolean }): void => {
    this.fallback = payload.fallback === true;
    if (payload.kind === this.transport.kind) {
      this.changed();
      return;
    }
    this.stopTransport();
    this.transport.leave();
    this.transport = this.makeTransport(payload.kind);
    if (this.started) this.transport.join(this.localStream);
    // The answer to this page's join (the server admitted it to the channel's media before saying how it goes):
    // through the media server, the connections start now rather than after the rest of the join (late entry:
    // a page joining while someone talks hears them sooner).
    if (this.started && !this.inChannel && payload.kind === 'server') this.transport.channelJoined();
    // The channel moved while this page was in it (the media server went down, or came back): the new
    // transport connects at once (on the mesh to every peer: two pages offering each other settle it).
    if (this.started && this.inChannel) {
      const self = this.signal.selfId;
      const peers = [...this.roster].filter(([id]) => id !== self);
      this.transport.present(
        peers.map(([id, peer]) => ({
          id,
          name: peer.name,
          userId: peer.userId,
          room: this.options.room,
          mode: peer.mode ?? 'talk',
          ...(peer.gateway ? { gateway: peer.gateway } : {}),
        })),
        true,
      );
      this.transport.channelJoined();
    }
    this.changed();
  };

  /** New ICE settings (renewed TURN credentials): the connections keep going and use them from now on. */
  setIce(ice: IceSettings): void {
    this.ice = ice;
    this.transport.configure(ice);
  }

  private changed(): void {
    if (!this.closed) this.publish(this.buildSnapshot());
  }

  private buildSnapshot(): VoiceRoomState {
    const peers: PeerState[] = this.transport.links().map((link) => {
      const known = this.roster.get(link.id);
      return {
        ...link,
        name: known?.name ?? '',
        userId: known?.userId || null,
        talking: this.talkingBySocket.get(link.id) ?? false,
        ...(known?.gateway ? { gateway: known.gateway } : {}),
      };
    });
    return {
      room: this.options.room,
      mode: this.options.mode ?? 'talk',
      transport: this.transport.kind,
      linkProblem: this.transport.problem() ?? (this.fallback && this.transport.kind === 'mesh' ? 'serverDown' : null),
      joined: this.joined,
      reconnecting: this.linkLost,
      selfId: this.signal.selfId,
      micReady: this.micReady,
      micOn: this.ptt.micOn,
      floorHolder: this.ptt.floorHolder,
      floorWait: this.ptt.wait,
      cameraOn: this.localStream?.getVideoTracks().some((track) => track.enabled) ?? false,
      mediaProblem: this.mediaProblem,
      localStream: this.localStream,
      peers,
    };
  }

  // --- Life cycle -----------------------------------------------------------------------------------

  /** Takes the microphone (muted; not when listening), then joins the room. Resolves once join_room is sent. */
  async start(): Promise<void> {
    if (!this.listening) await this.acquireMedia();
    if (this.closed) {
      this.stopLocalTracks();
      return;
    }
    this.started = true;
    this.transport.join(this.localStream);
    this.listen();
    if (this.signal.connected) this.join();
    this.changed();
  }

  /** Leaves the room: tells the others, closes every connection and releases the microphone. */
  leave(): void {
    if (this.closed) return;
    if (this.ptt.micOn) this.ptt.talk(false);
    if (this.joined) this.signal.leave();
    for (const off of this.offs.splice(0)) off();
    this.transport.leave();
    this.stopLocalTracks();
    this.joined = false;
    this.closed = true;
    this.reporter?.stop();
    this.unsubscribeAll();
  }

  /** What the room listens to on its socket, while it is open (its channel's events only). */
  private listen(): void {
    const { signal, options } = this;
    const socket = options.socket;
    const on = <E extends keyof ServerToClientEvents>(event: E, handler: ServerToClientEvents[E]) =>
      this.offs.push(signal.on(event, handler));
    // The peers a join finds, each naming its channel (a page in several channels gets one list per join).
    on('all_users', (peers) => this.arrived(peers.filter((peer) => signal.concerns(peer))));
    on('media_plane', this.onMediaPlane);
    on('user joined', this.onUserJoined);
    on('user_exit', this.onUserExit);
    on('onMicStateChanged', this.onMicStateChanged);
    on('floor_revoked', this.ptt.revoked);
    on('floor_granted', this.ptt.granted);
    on('floor_queue_position', this.ptt.queuePosition);
    socket.on('connect', this.onConnect);
    socket.on('disconnect', this.onDisconnect);
    this.offs.push(
      () => socket.off('connect', this.onConnect),
      () => socket.off('disconnect', this.onDisconnect),
    );
  }

  private join(): void {
    this.joined = true;
    void this.signal.join(this.options.name, this.options.mode ?? 'talk').then((answer) => this.answered(answer));
    this.changed();
  }

  private answered(answer: JoinAnswer | undefined): void {
    if (this.closed || !answer) return;
    if (answer.success) {
      this.inChannel = true;
      this.transport.channelJoined();
      if (this.linkLost) {
        this.linkLost = false;
        if (this.options.linkTones !== false) playLinkTone('back');
        this.changed();
      }
    } else {
      console.warn('Talkgroup: join refused', this.options.room, answer.result);
      this.joined = false;
      // Connections started early (media_plane) have no channel to carry.
      this.transport.reset();
      this.changed();
    }
  }

  /** The peers already there (listed after the join): we are the newcomer and connect to them. */
  private arrived(peers: RoomPeer[]): void {
    if (this.closed) return;
    const self = this.signal.selfId;
    for (const peer of peers) if (peer.id !== self) this.roster.set(peer.id, rosterEntry(peer));
    this.transport.present(peers, true);
    this.changed();
  }

  private readonly onConnect = (): void => {
    // A reconnection is a new socket id: the others saw us leave, so we join again as the newcomer.
    this.inChannel = false;
    this.roster.clear();
    this.transport.reset();
    this.join();
  };

  private readonly onDisconnect = (): void => {
    if (this.joined && !this.linkLost) {
      this.linkLost = true;
      if (this.options.linkTones !== false) playLinkTone('lost');
    }
    this.joined = false;
    this.inChannel = false;
    // The server frees the floor and ends the burst of a lost socket; the HTTP report keeps the state right.
    this.ptt.lost();
    this.changed();
  };

  private readonly onUserJoined = (remote: RoomPeer): void => {
    if (remote.id === this.signal.selfId) return;
    this.roster.set(remote.id, rosterEntry(remote));
    this.transport.present([remote], false);
    this.changed();
  };

  private readonly onUserExit = (payload: { id: string }): void => {
    this.roster.delete(payload.id);
    this.talkingBySocket.delete(payload.id);
    this.transport.gone(payload.id);
  };

  private readonly onMicStateChanged = (payload: { id: string; micState: boolean; room: string }): void => {
    const was = this.talkingBySocket.get(payload.id) ?? false;
    this.talkingBySocket.set(payload.id, payload.micState);
    // A change only: the same state comes twice (the socket's grant, then the talker's HTTP report), and each
    // snapshot redraws the page.
    if (was !== payload.micState && this.transport.links().some((link) => link.id === payload.id)) this.changed();
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
    if (!this.closed && !this.listening) this.ptt.press(on);
  }

  /** Leaves the channel's floor queue (issue 59: the page's Cancel). */
  cancelFloorQueue = (): void => this.ptt.cancelQueue();
  /**
   * An all call took this channel's floor (broadcast_request): heard here until `setBroadcasting(false)`; true
   * when this room records the call (TalkControl.broadcast).
   */
  setBroadcasting(on: boolean, recording?: BroadcastRecording): boolean {
    return !this.closed && !this.listening && this.ptt.broadcast(on, recording);
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
    const replaced = await this.transport.replaceMicTrack(this.localStream, {
      enabled: this.ptt.micOn,
      take: () => takeMicTrack(this.mediaOptions(), () => !this.closed),
    });
    if (replaced) this.changed();
  }

  // --- Read access -----------------------------------------------------------------------------------

  /** The connection with a peer, for reading its statistics (the opt-in diagnostics, see diagnostics.ts). */
  connectionOf(peerId: string): RTCPeerConnection | null {
    return this.transport.connectionOf(peerId);
  }
}
