/**
 * A channel's voice through the media server (issue 26): one WebRTC connection to it, whoever talks. The
 * microphone is sent on it (muted by the server until this page holds the floor) and the channel's mix comes
 * back on it; a talker's change renegotiates nothing. The offer and candidates go over the page's socket
 * (`media_offer`, answered with the server's SDP; `media_candidate`): the browser never speaks to the media
 * server's API.
 *
 * It never gives up: a refused offer (the media server restarting), a `media_reset` or a failed connection
 * starts afresh after a back-off, until the server answers.
 */
import type { RoomPeer } from '@talkgroup/protocol';
import { applyOpusSettings, JITTER_BUFFER_TARGET_MS } from './opusSettings.ts';
import type { SignalClient } from './signalClient.ts';
import type { VoiceLink, VoiceTransport } from './voiceTransport.ts';

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 5_000;
/** A connection that stays `disconnected` this long is started afresh. */
const DISCONNECTED_RESTART_MS = 5_000;

export interface ServerTransportOptions {
  signal: SignalClient;
  iceServers: RTCIceServer[];
}

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

  constructor(options: ServerTransportOptions) {
    this.options = options;
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
      this.audio.pause();
      this.audio.srcObject = null;
    }
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
    const { signal, iceServers } = this.options;
    const pc = new RTCPeerConnection({ iceServers });
    this.pc = pc;
    const track = this.local?.getAudioTracks()[0];
    if (track && this.local) pc.addTrack(track, this.local);
    else pc.addTransceiver('audio', { direction: 'recvonly' });
    pc.onicecandidate = (event) => signal.mediaCandidate(event.candidate?.toJSON() ?? null);
    pc.ontrack = (event) => {
      if ('jitterBufferTarget' in event.receiver) event.receiver.jitterBufferTarget = JITTER_BUFFER_TARGET_MS;
      this.mix = event.streams[0] ?? new MediaStream([event.track]);
      this.audio ??= Object.assign(new Audio(), { autoplay: true });
      this.audio.srcObject = this.mix;
      void this.audio.play().catch(() => {
        // Autoplay refused until the first gesture: the next press resumes it.
      });
      this.changed();
    };
    pc.onconnectionstatechange = () => {
      if (this.pc !== pc) return;
      if (pc.connectionState === 'connected') this.retries = 0;
      else if (pc.connectionState === 'failed') this.restart();
      else if (pc.connectionState === 'disconnected')
        this.timers.push(
          setTimeout(() => {
            if (this.pc === pc && pc.connectionState === 'disconnected') this.restart();
          }, DISCONNECTED_RESTART_MS),
        );
      this.changed();
    };
    try {
      const offer = await pc.createOffer();
      const tuned = { type: offer.type, sdp: applyOpusSettings(offer.sdp ?? '') };
      await pc.setLocalDescription(tuned).catch(() => pc.setLocalDescription(offer));
      const answer = await signal.mediaOffer(pc.localDescription?.sdp ?? tuned.sdp);
      if (attempt !== this.attempt) return;
      if (!answer.success) throw new Error(answer.result);
      await pc.setRemoteDescription({ type: 'answer', sdp: answer.sdp });
      this.changed();
    } catch (error) {
      if (attempt !== this.attempt) return;
      console.warn('Talkgroup: the media server did not take the offer', error);
      this.restart();
    }
  }
}
