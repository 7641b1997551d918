/**
 * A connection's remote candidates that arrive before its remote description (the other end's candidates can
 * overtake its offer or answer on the socket): kept, and added once the description is set. Shared by the
 * connections apart from the voice path (live video, ambient listening).
 */

/** Candidates that came before the remote description, added once it is set. */
export function candidateQueue(pc: RTCPeerConnection) {
  const waiting: RTCIceCandidateInit[] = [];
  let ready = false;
  return {
    add(candidate: RTCIceCandidateInit | null) {
      if (!candidate) return;
      if (ready) void pc.addIceCandidate(candidate).catch(() => undefined);
      else waiting.push(candidate);
    },
    ready() {
      ready = true;
      for (const candidate of waiting.splice(0)) void pc.addIceCandidate(candidate).catch(() => undefined);
    },
  };
}
