/**
 * Opt-in diagnostics of a voice room: a read-only handle, `window.__talkgroupRoom` (the page's talking room;
 * every room of the page, listened ones included, in `window.__talkgroupRooms` by room key), that the browser tests
 * and the latency bench read: peers, received levels (an AnalyserNode on each remote stream), inbound RTP
 * statistics and the time of the last press. It controls nothing, and production pages never load it:
 * useVoiceRoom imports it only when a page asks for it before it loads (see diagnosticsRequested).
 */
import { LevelMeter } from './levelMeter.ts';
import type { VoiceRoom } from './voiceRoom.ts';

export interface VoiceRoomDiagnostics {
  readonly room: string;
  readonly selfId: string | null;
  readonly micOn: boolean;
  readonly micReady: boolean;
  readonly mediaProblem: string | null;
  /** When the local track was last enabled / disabled, in epoch milliseconds (sub-millisecond precision). */
  readonly lastMicOnAt: number;
  readonly lastMicOffAt: number;
  peers(): Array<{ id: string; name: string; userId: number | null; connection: string; talking: boolean }>;
  /**
   * When the room last started showing a peer as talking (onMicStateChanged handled), in epoch milliseconds,
   * or 0: the page draws it right after.
   */
  talkingSince(peerId: string): number;
  /** Peak level (0..1) of each peer's received audio over the last 5 ms. */
  levels(): Record<string, number>;
  /** Peak level (0..1) of a peer's received audio over the last ~0.68 s: one read that a slow poll cannot miss. */
  recentPeak(peerId: string): number;
  /**
   * The level of the loudest 50 ms of a peer's received audio over the last ~0.68 s (a sine's peak for its
   * power): what a voice arrives with, where a glitch of a few milliseconds would raise the peak.
   */
  recentLevel(peerId: string): number;
  /**
   * The peak (0..1) of the first `seconds` of a peer's last sound heard (from where it rose above `threshold`
   * after 20 ms of quiet), or null until that much of it has played (LevelMeter.onsetPeak).
   */
  onsetPeak(peerId: string, threshold: number, seconds: number): number | null;
  /**
   * The audio level (0..1) of the last RTP packets received from a peer, as the receiver reports it
   * (before the jitter buffer's playout and Web Audio): the bench's point between network and ear.
   */
  rtpLevel(peerId: string): number;
  /** Resolves with the epoch time (ms) at which a peer's level first crosses `threshold`, or null. */
  waitForLevel(peerId: string, threshold: number, timeoutMs: number, above?: boolean): Promise<number | null>;
  /**
   * Resolves with the epoch time (ms) at which a peer's sound began, to the sample (LevelMeter.waitForOnset),
   * once its level crosses `threshold`; null after `timeoutMs`.
   */
  waitForOnset(peerId: string, threshold: number, timeoutMs: number): Promise<number | null>;
  /** Inbound audio statistics of one peer. */
  inboundAudio(peerId: string): Promise<InboundAudio | null>;
}

export interface InboundAudio {
  bytesReceived: number;
  packetsReceived: number;
  /**
   * Seconds of audio played out so far (silence, comfort noise and concealment included). It grows at one
   * second a second whatever the sender sends: with DTX a silent peer sends a packet every 400 ms only.
   */
  playedSeconds: number;
  /** Mean time a sample spent in the jitter buffer so far, ms. */
  jitterBufferMs: number;
}

declare global {
  interface Window {
    __talkgroupRoom?: VoiceRoomDiagnostics;
    __talkgroupRooms?: Record<string, VoiceRoomDiagnostics>;
  }
}

function rtpLevel(pc: RTCPeerConnection | null): number {
  let level = 0;
  for (const receiver of pc?.getReceivers() ?? []) {
    if (receiver.track.kind !== 'audio') continue;
    for (const source of receiver.getSynchronizationSources()) level = Math.max(level, source.audioLevel ?? 0);
  }
  return level;
}

async function inboundAudio(pc: RTCPeerConnection | null): Promise<InboundAudio | null> {
  if (!pc) return null;
  const report = await pc.getStats();
  const sum = { bytesReceived: 0, packetsReceived: 0, playedSeconds: 0, bufferedSeconds: 0, emitted: 0 };
  report.forEach((entry) => {
    if (entry.type === 'inbound-rtp' && entry.kind === 'audio') {
      sum.bytesReceived += entry.bytesReceived ?? 0;
      sum.packetsReceived += entry.packetsReceived ?? 0;
      sum.playedSeconds += entry.totalSamplesDuration ?? 0;
      sum.bufferedSeconds += entry.jitterBufferDelay ?? 0;
      sum.emitted += entry.jitterBufferEmittedCount ?? 0;
    }
  });
  return {
    bytesReceived: sum.bytesReceived,
    packetsReceived: sum.packetsReceived,
    playedSeconds: sum.playedSeconds,
    jitterBufferMs: sum.emitted > 0 ? (1000 * sum.bufferedSeconds) / sum.emitted : Number.NaN,
  };
}

/**
 * Installs this room's handle in `window.__talkgroupRooms` (and as `window.__talkgroupRoom` when it is the
 * page's `primary` room); the returned function removes it and its meters.
 */
export function attachDiagnostics(engine: VoiceRoom, room: string, primary = true): () => void {
  const meter = new LevelMeter();
  /**
   * Each peer's meter, named by its stream's audio tracks: a new track (or stream) is watched afresh, and peers
   * that share one stream (through the media server, every peer is heard on the channel's one stream) share one
   * meter, instead of a hundred analysers on the same audio in a channel of a hundred.
   */
  const meterOf = new Map<string, string>();
  const of = (peerId: string) => meterOf.get(peerId) ?? '';
  let micOn = engine.getSnapshot().micOn;
  let lastMicOnAt = 0;
  let lastMicOffAt = 0;
  const talkingSince = new Map<string, number>();

  // The room notifies its listeners synchronously, right after it flips the track: the press time is exact.
  const sync = () => {
    const state = engine.getSnapshot();
    if (state.micOn !== micOn) {
      micOn = state.micOn;
      const now = performance.timeOrigin + performance.now();
      if (micOn) lastMicOnAt = now;
      else lastMicOffAt = now;
      // The page may be opened without a gesture (user call view): a press is one, so the meter can start.
      meter.resume();
    }
    const present = new Set<string>();
    for (const peer of state.peers) {
      present.add(peer.id);
      if (!peer.talking) talkingSince.delete(peer.id);
      else if (!talkingSince.has(peer.id)) talkingSince.set(peer.id, performance.timeOrigin + performance.now());
      const tracks = peer.stream?.getAudioTracks().map((track) => track.id) ?? [];
      const key = tracks.join(',');
      if (!peer.stream || tracks.length === 0) {
        meterOf.delete(peer.id);
        continue;
      }
      meterOf.set(peer.id, key);
      if (!meter.ids().includes(key)) meter.watch(key, peer.stream);
    }
    for (const id of meterOf.keys()) if (!present.has(id)) meterOf.delete(id);
    const used = new Set(meterOf.values());
    for (const key of meter.ids()) if (!used.has(key)) meter.unwatch(key);
  };
  const unsubscribe = engine.subscribe(sync);
  sync();

  const handle: VoiceRoomDiagnostics = Object.freeze({
    room,
    get selfId() {
      return engine.getSnapshot().selfId;
    },
    get micOn() {
      return engine.getSnapshot().micOn;
    },
    get micReady() {
      return engine.getSnapshot().micReady;
    },
    get mediaProblem() {
      return engine.getSnapshot().mediaProblem;
    },
    get lastMicOnAt() {
      return lastMicOnAt;
    },
    get lastMicOffAt() {
      return lastMicOffAt;
    },
    peers: () =>
      engine.getSnapshot().peers.map(({ id, name, userId, connection, talking }) => ({
        id,
        name,
        userId,
        connection,
        talking,
      })),
    talkingSince: (peerId: string) => talkingSince.get(peerId) ?? 0,
    levels: () => Object.fromEntries(engine.getSnapshot().peers.map((peer) => [peer.id, meter.level(of(peer.id))])),
    recentPeak: (peerId: string) => meter.recentPeak(of(peerId)),
    recentLevel: (peerId: string) => meter.recentLevel(of(peerId)),
    onsetPeak: (peerId: string, threshold: number, seconds: number) => meter.onsetPeak(of(peerId), threshold, seconds),
    rtpLevel: (peerId: string) => rtpLevel(engine.connectionOf(peerId)),
    waitForLevel: (peerId: string, threshold: number, timeoutMs: number, above = true) =>
      meter.waitFor(of(peerId), threshold, timeoutMs, above),
    waitForOnset: (peerId: string, threshold: number, timeoutMs: number) =>
      meter.waitForOnset(of(peerId), threshold, timeoutMs),
    inboundAudio: (peerId: string) => inboundAudio(engine.connectionOf(peerId)),
  });
  if (primary) window.__talkgroupRoom = handle;
  window.__talkgroupRooms = { ...window.__talkgroupRooms, [room]: handle };

  return () => {
    unsubscribe();
    meter.close();
    if (window.__talkgroupRoom === handle) delete window.__talkgroupRoom;
    if (window.__talkgroupRooms?.[room] === handle) delete window.__talkgroupRooms[room];
  };
}
