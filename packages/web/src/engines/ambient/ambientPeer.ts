/**
 * Ambient listening's two ends (issue 60 item 6): one RTCPeerConnection of its own between the member's /talk and
 * the console page that listens, apart from the voice path (the talk button keeps working, nothing reaches the
 * channel). The member's page offers a microphone track of its own; the console answers, receive only, and plays
 * it. Signalled over the pages' sockets (`ambient_offer`, `ambient_answer`, `ambient_candidate`), which the server
 * relays only between the two parties of a live listening. The app's ICE servers, as every other connection.
 */
import type { ClientToServerEvents, ServerToClientEvents } from '@talkgroup/protocol';
import type { Socket } from 'socket.io-client';
import { candidateQueue } from '../voice/candidateQueue.ts';

type AmbientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface AmbientIce {
  iceServers: RTCIceServer[];
  iceTransportPolicy?: RTCIceTransportPolicy;
}

declare global {
  interface Window {
    /** The console's ambient connection, for the browser tests' level measurement (diagnostics on only). */
    __talkgroupAmbient?: RTCPeerConnection;
  }
}

function sendCandidates(socket: AmbientSocket, pc: RTCPeerConnection, listeningId: string): void {
  pc.onicecandidate = (event) =>
    socket.emit('ambient_candidate', {
      listeningId,
      candidate: event.candidate ? event.candidate.toJSON() : null,
    } as never);
}

/** The member's end: offers its microphone to the listener; `stop` ends it (the track is released). */
export async function offerAmbient(socket: AmbientSocket, listeningId: string, ice: AmbientIce) {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: false });
  const pc = new RTCPeerConnection(ice);
  const queue = candidateQueue(pc);
  for (const track of stream.getAudioTracks()) pc.addTrack(track, stream);
  sendCandidates(socket, pc, listeningId);
  const onAnswer = (payload: { listeningId: string; sdp: string }) => {
    if (payload.listeningId !== listeningId) return;
    void pc.setRemoteDescription({ type: 'answer', sdp: payload.sdp }).then(queue.ready, () => undefined);
  };
  const onCandidate = (payload: { listeningId: string; candidate: RTCIceCandidateInit | null }) => {
    if (payload.listeningId === listeningId) queue.add(payload.candidate);
  };
  socket.on('ambient_answer', onAnswer);
  socket.on('ambient_candidate', onCandidate as never);
  const offer = await pc.createOffer();
  await pc.setLocalDescription(offer);
  socket.emit('ambient_offer', { listeningId, sdp: offer.sdp ?? '' });
  return {
    stop() {
      socket.off('ambient_answer', onAnswer);
      socket.off('ambient_candidate', onCandidate as never);
      pc.close();
      for (const track of stream.getTracks()) track.stop();
    },
  };
}

/** The console's end: answers the member's offer and plays what comes in `audio`. */
export async function answerAmbient(
  socket: AmbientSocket,
  offer: { listeningId: string; sdp: string },
  ice: AmbientIce,
  audio: HTMLAudioElement,
  earlyCandidates: Array<RTCIceCandidateInit | null>,
) {
  const { listeningId } = offer;
  const pc = new RTCPeerConnection(ice);
  if (window.__talkgroupDiagnostics) window.__talkgroupAmbient = pc;
  const queue = candidateQueue(pc);
  for (const candidate of earlyCandidates) queue.add(candidate);
  pc.ontrack = (event) => {
    audio.srcObject = event.streams[0] ?? new MediaStream([event.track]);
    void audio.play().catch(() => undefined);
  };
  sendCandidates(socket, pc, listeningId);
  const onCandidate = (payload: { listeningId: string; candidate: RTCIceCandidateInit | null }) => {
    if (payload.listeningId === listeningId) queue.add(payload.candidate);
  };
  socket.on('ambient_candidate', onCandidate as never);
  await pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
  queue.ready();
  const answer = await pc.createAnswer();
  await pc.setLocalDescription(answer);
  socket.emit('ambient_answer', { listeningId, sdp: answer.sdp ?? '' });
  return {
    stop() {
      socket.off('ambient_candidate', onCandidate as never);
      pc.close();
      audio.srcObject = null;
      if (window.__talkgroupAmbient === pc) window.__talkgroupAmbient = undefined;
    },
  };
}
