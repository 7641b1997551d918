/** One peer of the mesh: its connection, its received stream and the element that plays it. */
import { playsIncoming, stopsIncoming } from './incoming.ts';
import { applyOpusSettings, JITTER_BUFFER_TARGET_MS } from './opusSettings.ts';
import type { AudioOutput, VoiceLink } from './voiceTransport.ts';

/** A peer whose connection has not come up after this long has no voice link (yet). */
const NO_VOICE_AFTER_MS = 15_000;
/** A connection that stays `disconnected` this long is started afresh (ICE often recovers sooner). */
const DISCONNECTED_RESTART_MS = 5_000;
/** Restarts of one peer are spaced by this much times their count, up to the cap. */
const RESTART_BACKOFF_MS = 2_000;
const RESTART_BACKOFF_MAX_MS = 30_000;

export interface Peer {
  id: string;
  pc: RTCPeerConnection;
  stream: MediaStream | null;
  /** Candidates that arrived before the remote description. */
  pendingCandidates: RTCIceCandidateInit[];
  audio: HTMLAudioElement | null;
  /** No voice link came up in time (NO_VOICE_AFTER_MS). */
  noVoice: boolean;
  /** Timers of this connection's watch (no voice yet, disconnected too long): cleared when it closes. */
  timers: ReturnType<typeof setTimeout>[];
  /** Restarts made for this peer since its last working link. */
  restarts: number;
}

/**
 * Sets a local offer or answer with the room's Opus settings (opusSettings.ts), and returns what was set. A
 * browser that refuses the rewritten description gets its own, as it wrote it.
 */
export async function setLocalDescription(
  pc: RTCPeerConnection,
  description: RTCSessionDescriptionInit,
): Promise<RTCSessionDescriptionInit> {
  const tuned = { type: description.type, sdp: applyOpusSettings(description.sdp ?? '') };
  try {
    await pc.setLocalDescription(tuned);
    return tuned;
  } catch (error) {
    console.warn('Talkgroup: Opus settings refused, using the browser defaults', error);
    await pc.setLocalDescription(description);
    return description;
  }
}

/** The jitter buffer minimum of opusSettings.ts, where the browser has it. */
function preferShortPlayout(receiver: RTCRtpReceiver | undefined): void {
  if (!receiver) return;
  if ('jitterBufferTarget' in receiver) receiver.jitterBufferTarget = JITTER_BUFFER_TARGET_MS;
  // Chromium before jitterBufferTarget: the same hint, in seconds.
  else if ('playoutDelayHint' in receiver)
    (receiver as { playoutDelayHint: number }).playoutDelayHint = JITTER_BUFFER_TARGET_MS / 1000;
}

/**
 * Remote audio plays through a detached audio element (Chrome also feeds Web Audio from a remote stream only
 * while a media element plays it, which the diagnostics' level meter relies on). With an `output` the element
 * plays muted, for that reason only, and the output is what is heard.
 */
export function playPeerAudio(peer: Peer, stream: MediaStream, room: string, output?: AudioOutput): void {
  if (!peer.audio) {
    peer.audio = new Audio();
    peer.audio.autoplay = true;
  }
  playsIncoming(peer.audio, output !== undefined, room);
  peer.audio.srcObject = stream;
  output?.attach(peer.id, stream);
  void peer.audio.play().catch(() => {
    // Autoplay refused until the first gesture: the next press resumes it.
  });
}

/**
 * Sends the local tracks to the peer. Without a local track of a kind (no microphone, no camera), the
 * offerer still asks to receive that kind, so that the user hears and sees the others.
 */
export function addLocalTracks(peer: Peer, stream: MediaStream | null, video: boolean, asOfferer: boolean): void {
  const kinds = video ? (['audio', 'video'] as const) : (['audio'] as const);
  for (const kind of kinds) {
    const track = stream?.getTracks().find((t) => t.kind === kind);
    if (track && stream) peer.pc.addTrack(track, stream);
    else if (asOfferer) peer.pc.addTransceiver(kind, { direction: 'recvonly' });
  }
}

export async function addCandidate(peer: Peer, candidate: RTCIceCandidateInit): Promise<void> {
  await peer.pc.addIceCandidate(candidate).catch((error) => console.warn('Talkgroup: bad candidate', error));
}

/** Applies the candidates that waited for the remote description. */
export async function flushCandidates(peer: Peer): Promise<void> {
  const pending = peer.pendingCandidates.splice(0);
  for (const candidate of pending) await addCandidate(peer, candidate);
}

/** Closes the connection and stops playing the peer; its events no longer reach the room. */
export function closePeer(peer: Peer, output?: AudioOutput): void {
  output?.detach(peer.id);
  for (const timer of peer.timers.splice(0)) clearTimeout(timer);
  peer.pc.onicecandidate = null;
  peer.pc.ontrack = null;
  peer.pc.onconnectionstatechange = null;
  peer.pc.close();
  if (peer.audio) {
    stopsIncoming(peer.audio);
    peer.audio.pause();
    peer.audio.srcObject = null;
  }
}

/**
 * Wires a peer's connection: its ICE candidates go to the peer, its received tracks play; no voice link
 * after NO_VOICE_AFTER_MS marks it `noVoice`; `failed`, or `disconnected` for DISCONNECTED_RESTART_MS, asks
 * for a restart; a working link clears both.
 */
export function wirePeer(
  peer: Peer,
  room: {
    isCurrent: () => boolean;
    restart: () => void;
    changed: () => void;
    sendCandidate: (candidate: RTCIceCandidateInit) => void;
    /** The channel's room (rtcSession): what the member's busy status mutes. */
    roomId: string;
    output?: AudioOutput;
  },
): void {
  const { pc } = peer;
  pc.onicecandidate = (event) => {
    if (event.candidate && room.isCurrent()) room.sendCandidate(event.candidate.toJSON());
  };
  pc.ontrack = (event) => {
    if (!room.isCurrent()) return;
    const stream = event.streams[0] ?? peer.stream ?? new MediaStream();
    if (!stream.getTracks().includes(event.track)) stream.addTrack(event.track);
    peer.stream = stream;
    if (event.track.kind === 'audio') {
      preferShortPlayout(event.receiver);
      playPeerAudio(peer, stream, room.roomId, room.output);
    }
    room.changed();
  };
  peer.timers.push(
    setTimeout(() => {
      if (!room.isCurrent() || pc.connectionState === 'connected') return;
      peer.noVoice = true;
      room.changed();
    }, NO_VOICE_AFTER_MS),
  );
  pc.onconnectionstatechange = () => {
    if (!room.isCurrent()) return;
    const state = pc.connectionState;
    if (state === 'connected') {
      peer.noVoice = false;
      peer.restarts = 0;
    } else if (state === 'failed') {
      room.restart();
    } else if (state === 'disconnected') {
      peer.timers.push(
        setTimeout(() => {
          if (room.isCurrent() && pc.connectionState === 'disconnected') room.restart();
        }, DISCONNECTED_RESTART_MS),
      );
    }
    room.changed();
  };
}

/** What the room shows of a peer's link. */
export function linkOf(peer: Peer): VoiceLink {
  return { id: peer.id, connection: peer.pc.connectionState, noVoice: peer.noVoice, stream: peer.stream };
}

/**
 * Runs a restart of this peer's connection after a delay that grows with the restarts already made, so that
 * two peers that cannot reach each other do not spin. The peer takes an offer for a connection it already
 * has as a fresh start (MeshTransport's onGetOffer).
 */
export function scheduleRestart(peer: Peer, restart: () => void): void {
  peer.timers.push(setTimeout(restart, Math.min(RESTART_BACKOFF_MAX_MS, RESTART_BACKOFF_MS * peer.restarts)));
}
