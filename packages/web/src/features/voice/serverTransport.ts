/**
 * A channel's voice through the media server (issue 26): one WebRTC connection to it, whoever talks. A page
 * that may talk sends its microphone on it (muted by the server until this page holds the floor) and hears
 * the channel's mix without its own voice; it offers (`media_offer`, answered with the server's SDP) and
 * trickles its candidates (`media_candidate`). A page that only listens (no microphone) gets the channel's
 * mix, encoded once for every listener: the server offers (`media_watch`) and the page answers
 * (`media_answer`). A talker's change renegotiates nothing. The browser never speaks to the media server's
 * API, only over the page's socket.
 *
 * It never gives up: a refused offer (the media server restarting), a `media_reset` or a failed connection
 * starts afresh after a back-off, until the server answers.
 */
import type { RoomPeer } from '@talkgroup/protocol';
import { playsIncoming, stopsIncoming } from './incoming.ts';
import { applyOpusSettings, JITTER_BUFFER_TARGET_MS } from './opusSettings.ts';
import type { SignalClient } from './signalClient.ts';
import type { AudioOutput, IceSettings, LinkProblem, VoiceLink, VoiceTransport } from './voiceTransport.ts';

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 5_000;
/** A connection that stays `disconnected` this long is started afresh. */
const DISCONNECTED_RESTART_MS = 5_000;

/**
 * What the page asks of the server's audio (in its description: the receiver's wishes). DTX and FEC as on the
 * mesh; no 10 ms frames: the media server mixes 20 ms frames (it asks the same of the page in its answer).
 */
const FROM_SERVER_OPUS = { usedtx: true, useinbandfec: true };

export interface ServerTransportOptions extends IceSettings {
  signal: SignalClient;
  /** Where the channel's mix plays, when the page mixes it itself (absent: an audio element of its own). */
  output?: AudioOutput;
}

/** The output's name for the media server's mix (one stream, whoever talks). */
const MIX = 'mix';

export class ServerTransport implements VoiceTransport {
  readonly kind = 'server' as const;
  private readonly options: ServerTransportOptions;
  private pc: RTCPeerConnection | null = null;
  private mix: MediaStream | null = null;
  private audio: HTMLAudioElement | null = null;
  private local: MediaStream | null = null;
  private joined = false;
  private roster: string[] = [];
  private retries = 0;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly offs: Array<() => void> = [];
  /** Bumped at each fresh start: an answer to an older offer is dropped. */
  private attempt = 0;
  private linkProblem: LinkProblem | null = null;
  private ice: IceSettings;

  constructor(options: ServerTransportOptions) {
    this.options = options;
    this.ice = { iceServers: options.iceServers, iceTransportPolicy: options.iceTransportPolicy };
  }

  problem(): LinkProblem | null {
    return this.linkProblem;
  }

  private setProblem(problem: LinkProblem | null): void {
    if (problem === this.linkProblem) return;
    this.linkProblem = problem;
    this.changed();
  }

  configure(ice: IceSettings): void {
    this.ice = ice;
    try {
      this.pc?.setConfiguration({ ...this.pc.getConfiguration(), ...ice });
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

  join(local: MediaStream | null): void {
    if (this.joined) return;
    this.joined = true;
    this.local = local;
    this.offs.push(this.options.signal.on('media_reset', () => this.restart()));
  }

  /** The server knows this page is in the channel now: offer (again, after a reconnection). */
  channelJoined(): void {
    if (this.joined && !this.pc) void this.connect();
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
    const track = this.local?.getAudioTracks()[0];
    if (track) track.enabled = on;
  }

  resumePlayback(): void {
    void this.audio?.play().catch(() => {});
  }

  /** The socket came back (a new socket id): the server forgot this page's connection; a new one follows. */
  reset(): void {
    this.close();
    this.roster = [];
    this.changed();
  }

  leave(): void {
    for (const off of this.offs.splice(0)) off();
    this.close();
    this.joined = false;
    this.listeners.clear();
    if (this.audio) {
      stopsIncoming(this.audio);
      this.audio.pause();
      this.audio.srcObject = null;
    }
    this.options.output?.detach(MIX);
  }

  /** One link per peer of the roster: they are all heard through the server's one connection. */
  links(): VoiceLink[] {
    const connection = this.pc?.connectionState ?? 'new';
    return this.roster.map((id) => ({ id, connection, noVoice: false, stream: this.mix }));
  }

  connectionOf(): RTCPeerConnection | null {
    return this.pc;
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
    for (const sender of this.pc?.getSenders() ?? []) if (sender.track === old) await sender.replaceTrack(track);
    local.removeTrack(old);
    old.stop();
    local.addTrack(track);
    return true;
  }

  // --- The connection ---------------------------------------------------------------------------------

  private close(): void {
    this.attempt++;
    for (const timer of this.timers.splice(0)) clearTimeout(timer);
    if (this.pc) {
      this.pc.onicecandidate = null;
      this.pc.ontrack = null;
      this.pc.onconnectionstatechange = null;
      this.pc.close();
      this.pc = null;
    }
  }

  private restart(): void {
    if (!this.joined) return;
    this.close();
    this.changed();
    const delay = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** this.retries++);
    this.timers.push(setTimeout(() => void this.connect(), delay));
  }

  private async connect(): Promise<void> {
    if (!this.joined || this.pc || !this.options.signal.connected) return;
    const attempt = ++this.attempt;
    const { signal } = this.options;
    const pc = new RTCPeerConnection(this.ice);
    this.pc = pc;
    let candidates = 0;
    pc.onicecandidate = (event) => {
      if (event.candidate) candidates += 1;
      // Gathering ended without a single path (relay-only and no relay answered): nothing can connect.
      else if (candidates === 0 && this.pc === pc) this.setProblem('noRoute');
      signal.mediaCandidate(event.candidate?.toJSON() ?? null);
    };
    pc.ontrack = (event) => {
      if ('jitterBufferTarget' in event.receiver) event.receiver.jitterBufferTarget = JITTER_BUFFER_TARGET_MS;
      this.mix = event.streams[0] ?? new MediaStream([event.track]);
      this.audio ??= Object.assign(new Audio(), { autoplay: true });
      // With an output the element plays muted, only so that Chrome feeds the stream to Web Audio.
      playsIncoming(this.audio, this.options.output !== undefined, this.options.signal.room);
      this.audio.srcObject = this.mix;
      this.options.output?.attach(MIX, this.mix);
      void this.audio.play().catch(() => {
        // Autoplay refused until the first gesture: the next press resumes it.
      });
      this.changed();
    };
    pc.onconnectionstatechange = () => {
      if (this.pc !== pc) return;
      if (pc.connectionState === 'connected') {
        this.retries = 0;
        this.setProblem(null);
      } else if (pc.connectionState === 'failed') {
        this.setProblem('noRoute');
        this.restart();
      } else if (pc.connectionState === 'disconnected')
        this.timers.push(
          setTimeout(() => {
            if (this.pc === pc && pc.connectionState === 'disconnected') this.restart();
          }, DISCONNECTED_RESTART_MS),
        );
      this.changed();
    };
    try {
      const track = this.local?.getAudioTracks()[0];
      if (track && this.local) await this.offer(pc, track, this.local, attempt);
      else await this.watch(pc, attempt);
      if (attempt === this.attempt && this.linkProblem === 'serverUnreachable') this.setProblem(null);
      this.changed();
    } catch (error) {
      if (attempt !== this.attempt) return;
      if (error instanceof Unanswered) this.setProblem('serverUnreachable');
      console.warn('Talkgroup: no voice link with the media server', error);
      this.restart();
    }
  }

  /** A page that talks: its microphone and the mix without its own voice, on its own offer. */
  private async offer(pc: RTCPeerConnection, track: MediaStreamTrack, local: MediaStream, attempt: number) {
    pc.addTrack(track, local);
    const offer = await pc.createOffer();
    const tuned = { type: offer.type, sdp: applyOpusSettings(offer.sdp ?? '', FROM_SERVER_OPUS) };
    await pc.setLocalDescription(tuned).catch(() => pc.setLocalDescription(offer));
    const answer = await this.options.signal.mediaOffer(pc.localDescription?.sdp ?? tuned.sdp);
    if (attempt !== this.attempt) return;
    if (!answer.success) throw new Unanswered(answer.result);
    await pc.setRemoteDescription({ type: 'answer', sdp: answer.sdp });
  }

  /** A page that listens: the channel's mix, on the server's offer. */
  private async watch(pc: RTCPeerConnection, attempt: number) {
    const offered = await this.options.signal.mediaWatch();
    if (attempt !== this.attempt) return;
    if (!offered.success) throw new Unanswered(offered.result);
    await pc.setRemoteDescription({ type: 'offer', sdp: offered.sdp });
    const answer = await pc.createAnswer();
    const tuned = { type: answer.type, sdp: applyOpusSettings(answer.sdp ?? '', FROM_SERVER_OPUS) };
    await pc.setLocalDescription(tuned).catch(() => pc.setLocalDescription(answer));
    const done = await this.options.signal.mediaAnswer(pc.localDescription?.sdp ?? tuned.sdp);
    if (attempt === this.attempt && !done.success) throw new Unanswered(done.result ?? '');
  }
}

/** The server refused or did not answer (it cannot reach a media server now). */
class Unanswered extends Error {}
