/**
 * The peer-to-peer mesh: every browser in a channel connects to every other one, and the server only relays
 * their WebRTC signalling (offer, answer, candidate) between sockets of the same channel. Nothing passes
 * through the server, so it cannot silence anyone: the floor is kept by the clients (a talker's browser
 * enables its microphone only when granted). Zero install, for small teams; a media server takes over for
 * large channels and enforces the floor.
 */
import { Answer, Candidate, Offer } from '@talkgroup/protocol';
import { peerRoom } from '../../sockets/room-names.ts';
import type { SocketConcern } from '../io.ts';
import { parse } from '../socket-tasks.ts';
import { type ChannelMedia, channelRegistry, type MediaParticipant, type MediaPlane } from './plane.ts';

/**
 * The relay: the sender id is this socket's, never the client's claim, and the target must share the channel
 * the signal names (its peer room there), on whichever instance it is connected. Each relayed signal names
 * its channel (`room`), so that a page in several channels hands it to that channel's connections.
 */
const signalling: SocketConcern = (socket, scope) => {
  scope.on('offer', (payload) => {
    const offer = parse(Offer, payload, 'offer');
    const { channelId, room } = scope.requireRoom('offer', offer.room);
    socket.to(peerRoom(channelId, offer.offerReceiveID)).emit('getOffer', {
      sdp: offer.sdp,
      offerSendID: socket.id,
      offerSendName: socket.data.name,
      room,
    });
  });

  scope.on('answer', (payload) => {
    const answer = parse(Answer, payload, 'answer');
    const { channelId, room } = scope.requireRoom('answer', answer.room);
    socket.to(peerRoom(channelId, answer.answerReceiveID)).emit('getAnswer', {
      sdp: answer.sdp,
      answerSendID: socket.id,
      room,
    });
  });

  scope.on('candidate', (payload) => {
    const candidate = parse(Candidate, payload, 'candidate');
    const { channelId, room } = scope.requireRoom('candidate', candidate.room);
    socket.to(peerRoom(channelId, candidate.candidateReceiveID)).emit('getCandidate', {
      candidate: candidate.candidate,
      candidateSendID: socket.id,
      room,
    });
  });
};

export function meshPlane(): MediaPlane {
  const registry = channelRegistry((channelId, closed): ChannelMedia => {
    const participants = new Map<string, MediaParticipant>();
    return {
      channelId,
      kind: 'mesh',
      async admit(participant) {
        participants.set(participant.socketId, { ...participant });
      },
      async remove(socketId) {
        participants.delete(socketId);
        if (participants.size === 0) closed();
      },
      // The browsers carry the voice: a grant or a revoke reaches the talker as floor events; it is only kept,
      // for a move to the media server.
      async grantTalk(socketId) {
        const participant = participants.get(socketId);
        if (participant) participant.heard = true;
      },
      async revokeTalk(socketId) {
        const participant = participants.get(socketId);
        if (participant) participant.heard = false;
      },
      async close() {
        participants.clear();
        closed();
      },
      participants: () => [...participants.values()],
    };
  });
  return { kind: 'mesh', concern: signalling, ...registry };
}
