/**
 * A stand-in for the browser's RTCPeerConnection in the voice unit tests (vi.stubGlobal): it records what the
 * code under test asks of it, and its descriptions are plain strings. The browser tests use the real one.
 */
export class FakePeerConnection {
  static all: FakePeerConnection[] = [];
  connectionState = 'new';
  signalingState = 'stable';
  localDescription: { type: string; sdp: string; toJSON(): unknown } | null = null;
  remoteDescription: unknown = null;
  added: unknown[] = [];
  candidates: unknown[] = [];
  closed = false;
  onicecandidate: ((event: { candidate: unknown }) => void) | null = null;
  ontrack: unknown = null;
  onconnectionstatechange: unknown = null;
  constructor(readonly config: unknown) {
    FakePeerConnection.all.push(this);
  }
  addTrack(track: unknown) {
    this.added.push(track);
  }
  addTransceiver(kind: string, init: unknown) {
    this.added.push({ kind, init });
  }
  async createOffer() {
    return { type: 'offer', sdp: 'offer-sdp' };
  }
  async createAnswer() {
    return { type: 'answer', sdp: 'answer-sdp' };
  }
  async setLocalDescription(description: { type: string; sdp: string }) {
    this.localDescription = { ...description, toJSON: () => description };
    this.signalingState = description.type === 'offer' ? 'have-local-offer' : 'stable';
  }
  async setRemoteDescription(description: unknown) {
    this.remoteDescription = description;
    this.signalingState = this.signalingState === 'have-local-offer' ? 'stable' : 'have-remote-offer';
  }
  async addIceCandidate(candidate: unknown) {
    this.candidates.push(candidate);
  }
  getSenders() {
    return [];
  }
  getReceivers() {
    return [];
  }
  close() {
    this.closed = true;
  }
}
