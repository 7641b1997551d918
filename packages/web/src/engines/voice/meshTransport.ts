/**
 * The peer-to-peer mesh (spec section 4, voice room): one WebRTC connection per peer of the channel, signalled
 * over the page's socket (signalClient.ts).
 *
 * - The local microphone's sender is negotiated at join: talking only flips `track.enabled`, so it starts
 *   without any negotiation (push-to-talk latency). `sender.replaceTrack(track)` on the press (and `null` on
 *   the release) was measured too (`npm run bench:ptt -- --variants`): never faster (1.16x and 1.26x the
 *   enabled track's press-to-sound at p50), and after the silent gaps some receivers' jitter buffers grew to
 *   600-840 ms; DTX (opusSettings.ts) gives the quiet idle link it would have been for.
 * - Each local description asks for Opus with DTX and 10 ms frames (opusSettings.ts).
 * - The newcomer makes the offers (to the peers the join lists); the others answer. Candidates are relayed
 *   both ways and queued until the remote description is set. Two listeners do not connect: neither sends.
 * - A connection that fails, or stays disconnected, is started afresh without leaving the channel; a peer
 *   whose link never comes up is marked `noVoice`.
 */
import type { RoomPeer } from '@talkgroup/protocol';
import { isGatewayPeer } from './gatewayPeer.ts';
import {
  addCandidate,
  addLocalTracks,
  closePeer,
  flushCandidates,
  linkOf,
  type Peer,
  scheduleRestart,
  setLocalDescription,
  wirePeer,
} from './peer.ts';
import type { SignalClient } from './signalClient.ts';
import type { AudioOutput, IceSettings, LinkProblem, VoiceLink, VoiceTransport } from './voiceTransport.ts';

export interface MeshOptions extends IceSettings {
  signal: SignalClient;
  /** The name this page offers under (the server shows the account's anyway). */
  name: string;
  /** Send video too (the join view). */
  video: boolean;
  /** This page only listens: it sends nothing and does not connect to other listeners. */
  listenOnly: boolean;
  /** A peer offered before the roster named it: its name from the offer. */
  offeredBy: (peerId: string, name: string) => void;
  /** Where received voice plays, when the page mixes it itself (absent: each peer's own audio element). */
  output?: AudioOutput;
}

export class MeshTransport implements VoiceTransport {
  readonly kind = 'mesh' as const;
  private readonly peers = new Map<string, Peer>();
  private local: MediaStream | null = null;
  private joined = false;
  private readonly listeners = new Set<() => void>();
  private readonly offs: Array<() => void> = [];

  constructor(private readonly options: MeshOptions) {}

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Each peer's link says for itself whether it came up (noVoice). */
  problem(): LinkProblem | null {
    return null;
  }

  configure(ice: IceSettings): void {
    this.options.iceServers = ice.iceServers;
    this.options.iceTransportPolicy = ice.iceTransportPolicy;
    for (const peer of this.peers.values()) {
      try {
        peer.pc.setConfiguration({ ...peer.pc.getConfiguration(), ...ice });
      } catch {
        // A policy this connection cannot take: its next start takes it.
      }
    }
  }

  join(local: MediaStream | null): void {
    if (this.joined) return;
    this.joined = true;
    this.local = local;
    const { signal } = this.options;
    this.offs.push(
      signal.on('getOffer', (payload) => this.onGetOffer(payload)),
      signal.on('getAnswer', (payload) => this.onGetAnswer(payload)),
      signal.on('getCandidate', (payload) => this.onGetCandidate(payload)),
    );
  }

  present(peers: RoomPeer[], asNewcomer: boolean): void {
    if (!asNewcomer) return;
    const self = this.options.signal.selfId;
    for (const remote of peers) {
      if (remote.id === self || this.peers.has(remote.id)) continue;
      // A gateway's call has no socket and no browser behind it: it is heard through the media server only, and
      // an offer to it would wait for an answer that never comes.
      if (isGatewayPeer(remote)) continue;
      // Two listeners have nothing to say to each other.
      if (this.options.listenOnly && remote.mode === 'listen') continue;
      const peer = this.createPeer(remote.id);
      addLocalTracks(peer, this.local, this.options.video, true);
      void this.offer(peer);
    }
  }

  gone(peerId: string): void {
    this.removePeer(peerId);
  }

  channelJoined(): void {
    // The join's peer list (present) starts the connections.
  }

  setTalking(on: boolean): void {
    const track = this.local?.getAudioTracks()[0];
    if (track) track.enabled = on;
  }

  resumePlayback(): void {
    for (const peer of this.peers.values()) void peer.audio?.play().catch(() => {});
  }

  reset(): void {
    for (const id of [...this.peers.keys()]) this.removePeer(id);
  }

  leave(): void {
    for (const off of this.offs.splice(0)) off();
    this.reset();
    this.joined = false;
    this.listeners.clear();
  }

  links(): VoiceLink[] {
    return [...this.peers.values()].map(linkOf);
  }

  connectionOf(peerId: string): RTCPeerConnection | null {
    return this.peers.get(peerId)?.pc ?? null;
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
    for (const peer of this.peers.values()) {
      for (const sender of peer.pc.getSenders()) if (sender.track === old) await sender.replaceTrack(track);
    }
    local.removeTrack(old);
    old.stop();
    local.addTrack(track);
    return true;
  }

  // --- Connections ------------------------------------------------------------------------------------

  private createPeer(id: string): Peer {
    const existing = this.peers.get(id);
    if (existing) return existing;
    const { iceServers, iceTransportPolicy } = this.options;
    const pc = new RTCPeerConnection({ iceServers, iceTransportPolicy });
    const peer: Peer = {
      id,
      pc,
      stream: null,
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
      sendCandidate: (candidate) => this.options.signal.candidate(id, candidate),
      roomId: this.options.signal.room,
      output: this.options.output,
    });
    this.changed();
    return peer;
  }

  private removePeer(id: string): void {
    const peer = this.peers.get(id);
    if (!peer) return;
    this.peers.delete(id);
    closePeer(peer, this.options.output);
    this.changed();
  }

  /** A connection that failed (or stayed disconnected) is replaced by a new one, offered from this side. */
  private restartPeer(peer: Peer): void {
    scheduleRestart(peer, () => {
      if (!this.joined || this.peers.get(peer.id) !== peer) return;
      this.removePeer(peer.id);
      const fresh = this.createPeer(peer.id);
      fresh.restarts = peer.restarts + 1;
      addLocalTracks(fresh, this.local, this.options.video, true);
      void this.offer(fresh);
    });
  }

  private async offer(peer: Peer): Promise<void> {
    try {
      const offer = await setLocalDescription(peer.pc, await peer.pc.createOffer());
      this.options.signal.offer(peer.id, peer.pc.localDescription?.toJSON() ?? offer, this.options.name);
    } catch (error) {
      console.warn('Talkgroup: offer failed', peer.id, error);
    }
  }

  private async onGetOffer(payload: { sdp: unknown; offerSendID: string; offerSendName: string }): Promise<void> {
    const { offerSendID: id } = payload;
    const self = this.options.signal.selfId;
    if (!id || id === self) return;
    const existing = this.peers.get(id);
    if (existing) {
      // Two sockets that joined at once may both offer. The one with the greater socket id gives way and
      // answers; the other ignores the offer it got and waits for the answer to its own.
      const collision = existing.pc.signalingState === 'have-local-offer';
      if (collision && (self ?? '') < id) return;
      // Otherwise (giving way, or the peer rejoined): start afresh.
      this.removePeer(id);
    }
    this.options.offeredBy(id, payload.offerSendName);
    const peer = this.createPeer(id);
    try {
      await peer.pc.setRemoteDescription(payload.sdp as RTCSessionDescriptionInit);
      addLocalTracks(peer, this.local, this.options.video, false);
      await flushCandidates(peer);
      const answer = await setLocalDescription(peer.pc, await peer.pc.createAnswer());
      this.options.signal.answer(id, peer.pc.localDescription?.toJSON() ?? answer);
    } catch (error) {
      console.warn('Talkgroup: answer failed', id, error);
    }
  }

  private async onGetAnswer(payload: { sdp: unknown; answerSendID: string }): Promise<void> {
    const peer = this.peers.get(payload.answerSendID);
    if (peer?.pc.signalingState !== 'have-local-offer') return;
    try {
      await peer.pc.setRemoteDescription(payload.sdp as RTCSessionDescriptionInit);
      await flushCandidates(peer);
    } catch (error) {
      console.warn('Talkgroup: answer not applied', peer.id, error);
    }
  }

  private async onGetCandidate(payload: { candidate: unknown; candidateSendID: string }): Promise<void> {
    const peer = this.peers.get(payload.candidateSendID);
    if (!peer || !payload.candidate) return;
    const candidate = payload.candidate as RTCIceCandidateInit;
    if (!peer.pc.remoteDescription) {
      peer.pendingCandidates.push(candidate);
      return;
    }
    await addCandidate(peer, candidate);
  }
}
