/** One peer of the voice room's mesh: its connection, its received stream and the element that plays it. */

export interface Peer {
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

/** Remote audio plays through a detached audio element (Chrome also feeds Web Audio from a remote stream
 * only while a media element plays it, which the diagnostics' level meter relies on). */
export function playPeerAudio(peer: Peer, stream: MediaStream): void {
  if (!peer.audio) {
    peer.audio = new Audio();
    peer.audio.autoplay = true;
  }
  peer.audio.srcObject = stream;
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
export function closePeer(peer: Peer): void {
  peer.pc.onicecandidate = null;
  peer.pc.ontrack = null;
  peer.pc.onconnectionstatechange = null;
  peer.pc.close();
  if (peer.audio) {
    peer.audio.pause();
    peer.audio.srcObject = null;
  }
}
