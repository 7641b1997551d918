/**
 * A channel's voice through the media server (issues 26 and 37). Two WebRTC connections at most, whoever
 * talks and however many listen:
 *
 * - `receive`: the channel's voice. Every page watches the channel's stream (`media_watch`, the server offers,
 *   the page answers with `media_answer`): the floor holder's packets, forwarded by the media server as they
 *   arrived. A talker's change renegotiates nothing.
 * - `send`: a page that may talk publishes its microphone (`media_offer` with `leg: 'send'`, answered with the
 *   server's SDP). The track stays disabled until the floor is granted, and the server forwards it only while
 *   this page holds the floor.
 *
 * Both trickle their candidates (`media_candidate`, naming the leg). While this page talks its own voice comes
 * back on the channel's stream: it is muted then, and for a moment after (what was already on its way).
 *
 * It never gives up: a refused offer (the media server restarting), a `media_reset` or a failed connection
 * starts afresh after a back-off, until the server answers. The browser never speaks to the media server's
 * API, only over the page's socket.
 */
import type { MediaLeg, RoomPeer } from '@talkgroup/protocol';
import { playsIncoming, stopsIncoming } from './incoming.ts';
import { applyOpusSettings, JITTER_BUFFER_TARGET_MS } from './opusSettings.ts';
import type { SignalClient } from './signalClient.ts';
import type { AudioOutput, IceSettings, LinkProblem, VoiceLink, VoiceTransport } from './voiceTransport.ts';

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 5_000;
/** A connection that stays `disconnected` this long is started afresh. */
const DISCONNECTED_RESTART_MS = 5_000;
/**
 * How long the channel's stream stays muted after this page stops talking: its own last words are still on
 * their way back (network and jitter buffer, well under this on any usable link).
 */
const OWN_ECHO_TAIL_MS = 400;

/**
 * What the page asks of the server's audio (in its description: the receiver's wishes). DTX and FEC as on the
 * mesh; no 10 ms frames: the media server's mixer (patches, spec clients) takes 20 ms frames, and a talker's
 * packets go there as they are.
 */
const FROM_SERVER_OPUS = { usedtx: true, useinbandfec: true };

export interface ServerTransportOptions extends IceSettings {
  signal: SignalClient;
  /** Where the channel's voice plays, when the page mixes it itself (absent: an audio element of its own). */
  output?: AudioOutput;
}

/** The output's name for the channel's stream (one stream, whoever talks). */
const MIX = 'mix';

/** The server refused or did not answer (it cannot reach a media server now). */
class Unanswered extends Error {}

/** One connection with the media server, made again after any failure until the transport leaves. */
class Leg {
  pc: RTCPeerConnection | null = null;
  private attempt = 0;
  private retries = 0;
  private timers: ReturnType<typeof setTimeout>[] = [];

  constructor(
    private readonly kind: MediaLeg,
    private readonly transport: {
      signal: SignalClient;
      ice(): IceSettings;
      wanted(): boolean;
      negotiate(pc: RTCPeerConnection, isCurrent: () => boolean): Promise<void>;
      track(pc: RTCPeerConnection, event: RTCTrackEvent): void;
      problem(problem: LinkProblem | null, from: Leg): void;
      changed(): void;
    },
  ) {}

  get state(): RTCPeerConnectionState {
    return this.pc?.connectionState ?? 'new';
  }

  close(): void {
    this.attempt++;
    this.negotiating = null;
    for (const timer of this.timers.splice(0)) clearTimeout(timer);
    if (this.pc) {
      this.pc.onicecandidate = null;
      this.pc.ontrack = null;
      this.pc.onconnectionstatechange = null;
      this.pc.close();
      this.pc = null;
    }
  }

  restart(): void {
    if (!this.transport.wanted()) return;
    this.close();
    this.transport.changed();
    const delay = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** this.retries++);
    this.timers.push(setTimeout(() => void this.connect(), delay));
  }

  /** The negotiation under way: a second call (the channel joined again meanwhile) waits for the same one. */
  private negotiating: Promise<void> | null = null;

  connect(): Promise<void> {
    if (this.negotiating) return this.negotiating;
    const run = this.establish().finally(() => {
      if (this.negotiating === run) this.negotiating = null;
    });
    this.negotiating = run;
    return run;
  }

  private async establish(): Promise<void> {
    const { signal } = this.transport;
    if (!this.transport.wanted() || this.pc || !signal.connected) return;
    const attempt = ++this.attempt;
    const pc = new RTCPeerConnection(this.transport.ice());
    this.pc = pc;
    let candidates = 0;
    pc.onicecandidate = (event) => {
      if (event.candidate) candidates += 1;
      // Gathering ended without a single path (relay-only and no relay answered): nothing can connect.
      else if (candidates === 0 && this.pc === pc) this.transport.problem('noRoute', this);
      signal.mediaCandidate(event.candidate?.toJSON() ?? null, this.kind);
    };
    pc.ontrack = (event) => this.transport.track(pc, event);
    pc.onconnectionstatechange = () => {
      if (this.pc !== pc) return;
      if (pc.connectionState === 'connected') {
        this.retries = 0;
        this.transport.problem(null, this);
      } else if (pc.connectionState === 'failed') {
        this.transport.problem('noRoute', this);
        this.restart();
      } else if (pc.connectionState === 'disconnected')
        this.timers.push(
          setTimeout(() => {
            if (this.pc === pc && pc.connectionState === 'disconnected') this.restart();
          }, DISCONNECTED_RESTART_MS),
        );
      this.transport.changed();
    };
    try {
      await this.transport.negotiate(pc, () => attempt === this.attempt);
      if (attempt === this.attempt) this.transport.problem(null, this);
      this.transport.changed();
    } catch (error) {
      if (attempt !== this.attempt) return;
      if (error instanceof Unanswered) this.transport.problem('serverUnreachable', this);
      console.warn(`Talkgroup: no ${this.kind} link with the media server`, error);
      this.restart();
    }
  }
}

export class ServerTransport implements VoiceTransport {
  readonly kind = 'server' as const;
  private readonly options: ServerTransportOptions;
  private mix: MediaStream | null = null;
  private audio: HTMLAudioElement | null = null;
  private local: MediaStream | null = null;
  private joined = false;
  private roster: string[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly offs: Array<() => void> = [];
  private readonly problems = new Map<Leg, LinkProblem>();
  private ice: IceSettings;
  private readonly receive: Leg;
  private readonly send: Leg;
  /** This page talks now, or stopped a moment ago: its own voice on the channel's stream is muted. */
  private ownVoice = false;
  private ownVoiceTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: ServerTransportOptions) {
    this.options = options;
    this.ice = { iceServers: options.iceServers, iceTransportPolicy: options.iceTransportPolicy };
    const common = {
      signal: options.signal,
      ice: () => this.ice,
      track: (_pc: RTCPeerConnection, event: RTCTrackEvent) => this.heard(event),
      problem: (problem: LinkProblem | null, from: Leg) => this.setProblem(problem, from),
      changed: () => this.changed(),
    };
    this.receive = new Leg('receive', {
      ...common,
      wanted: () => this.joined,
      negotiate: (pc, isCurrent) => this.watch(pc, isCurrent),
    });
    this.send = new Leg('send', {
      ...common,
      wanted: () => this.joined && this.micTrack() !== null,
      negotiate: (pc, isCurrent) => this.publish(pc, isCurrent),
    });
  }

  problem(): LinkProblem | null {
    return this.problems.get(this.receive) ?? this.problems.get(this.send) ?? null;
  }

  private setProblem(problem: LinkProblem | null, from: Leg): void {
    const before = this.problem();
    if (problem) this.problems.set(from, problem);
    else this.problems.delete(from);
    if (this.problem() !== before) this.changed();
  }

  configure(ice: IceSettings): void {
    this.ice = ice;
    for (const pc of [this.receive.pc, this.send.pc])
      try {
        pc?.setConfiguration({ ...pc.getConfiguration(), ...ice });
      } catch {
        // A policy this connection cannot take: the next connection starts with it.
      }
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private micTrack(): MediaStreamTrack | null {
    return this.local?.getAudioTracks()[0] ?? null;
  }

  join(local: MediaStream | null): void {
    if (this.joined) return;
    this.joined = true;
    this.local = local;
    this.offs.push(
      this.options.signal.on('media_reset', () => {
        this.receive.restart();
        this.send.restart();
      }),
    );
  }

  /** The server knows this page is in the channel now: its connections are made (again, after a reconnection). */
  channelJoined(): void {
    if (!this.joined) return;
    // The channel's voice first: the server handles one page's requests to the media server in turn, so a
    // microphone published at the same time would hold back the answer that starts the stream (late entry:
    // a page joining while someone talks hears them sooner). The microphone follows once it is answered.
    void this.receive.connect().finally(() => void this.send.connect());
  }

  present(peers: RoomPeer[]): void {
    const self = this.options.signal.selfId;
    for (const peer of peers) if (peer.id !== self && !this.roster.includes(peer.id)) this.roster.push(peer.id);
    this.changed();
  }

  gone(peerId: string): void {
    this.roster = this.roster.filter((id) => id !== peerId);
    this.changed();
  }

  setTalking(on: boolean): void {
    // The server decides who is heard; the track follows the floor so that nothing is sent for nothing.
    const track = this.micTrack();
    if (track) track.enabled = on;
    clearTimeout(this.ownVoiceTimer);
    if (on) this.muteOwnVoice(true);
    else this.ownVoiceTimer = setTimeout(() => this.muteOwnVoice(false), OWN_ECHO_TAIL_MS);
  }

  /** While this page talks, the channel's stream (its own voice, forwarded back) is not played. */
  private muteOwnVoice(muted: boolean): void {
    this.ownVoice = muted;
    for (const track of this.mix?.getAudioTracks() ?? []) track.enabled = !muted;
  }

  resumePlayback(): void {
    void this.audio?.play().catch(() => {});
  }

  /** The socket came back (a new socket id): the server forgot this page's connections; new ones follow. */
  reset(): void {
    this.receive.close();
    this.send.close();
    this.roster = [];
    this.changed();
  }

  leave(): void {
    for (const off of this.offs.splice(0)) off();
    this.joined = false;
    this.receive.close();
    this.send.close();
    clearTimeout(this.ownVoiceTimer);
    this.listeners.clear();
    if (this.audio) {
      stopsIncoming(this.audio);
      this.audio.pause();
      this.audio.srcObject = null;
    }
    this.options.output?.detach(MIX);
  }

  /** One link per peer of the roster: they are all heard through the channel's one stream. */
  links(): VoiceLink[] {
    const connection = this.receive.state;
    return this.roster.map((id) => ({ id, connection, noVoice: false, stream: this.mix }));
  }

  /** The connection that carries every peer's voice (the channel's stream). */
  connectionOf(): RTCPeerConnection | null {
    return this.receive.pc;
  }

  async replaceMicTrack(
    local: MediaStream | null,
    how: { enabled: boolean; take: () => Promise<MediaStreamTrack | null> },
  ): Promise<boolean> {
    const old = local?.getAudioTracks()[0];
    if (!local || !old) return false;
    const track = await how.take();
    if (!track) return false;
    track.enabled = how.enabled;
    for (const sender of this.send.pc?.getSenders() ?? []) if (sender.track === old) await sender.replaceTrack(track);
    local.removeTrack(old);
    old.stop();
    local.addTrack(track);
    return true;
  }

  // --- The connections ---------------------------------------------------------------------------------

  /** The channel's stream arrived (on the receiving connection): played, or handed to the page's output. */
  private heard(event: RTCTrackEvent): void {
    if ('jitterBufferTarget' in event.receiver) event.receiver.jitterBufferTarget = JITTER_BUFFER_TARGET_MS;
    this.mix = event.streams[0] ?? new MediaStream([event.track]);
    event.track.enabled = !this.ownVoice;
    this.audio ??= Object.assign(new Audio(), { autoplay: true });
    // With an output the element plays muted, only so that Chrome feeds the stream to Web Audio.
    playsIncoming(this.audio, this.options.output !== undefined, this.options.signal.room);
    this.audio.srcObject = this.mix;
    this.options.output?.attach(MIX, this.mix);
    void this.audio.play().catch(() => {
      // Autoplay refused until the first gesture: the next press resumes it.
    });
    this.changed();
  }

  /** The page's microphone, sent only: the server answers. */
  private async publish(pc: RTCPeerConnection, isCurrent: () => boolean): Promise<void> {
    const track = this.micTrack();
    if (!track || !this.local) return;
    pc.addTransceiver(track, { direction: 'sendonly', streams: [this.local] });
    const offer = await pc.createOffer();
    const tuned = { type: offer.type, sdp: applyOpusSettings(offer.sdp ?? '', FROM_SERVER_OPUS) };
    await pc.setLocalDescription(tuned).catch(() => pc.setLocalDescription(offer));
    const answer = await this.options.signal.mediaOffer(pc.localDescription?.sdp ?? tuned.sdp, 'send');
    if (!isCurrent()) return;
    if (!answer.success) throw new Unanswered(answer.result);
    await pc.setRemoteDescription({ type: 'answer', sdp: answer.sdp });
  }

  /** The channel's stream, on the server's offer. */
  private async watch(pc: RTCPeerConnection, isCurrent: () => boolean): Promise<void> {
    const offered = await this.options.signal.mediaWatch();
    if (!isCurrent()) return;
    if (!offered.success) throw new Unanswered(offered.result);
    await pc.setRemoteDescription({ type: 'offer', sdp: offered.sdp });
    const answer = await pc.createAnswer();
    const tuned = { type: answer.type, sdp: applyOpusSettings(answer.sdp ?? '', FROM_SERVER_OPUS) };
    await pc.setLocalDescription(tuned).catch(() => pc.setLocalDescription(answer));
    const done = await this.options.signal.mediaAnswer(pc.localDescription?.sdp ?? tuned.sdp);
    if (isCurrent() && !done.success) throw new Unanswered(done.result ?? '');
  }
}
