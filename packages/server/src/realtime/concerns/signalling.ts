/**
 * The WebRTC signalling relay: the sender id is this socket's, never the client's claim, and the target
 * must share the sender's channel (its peer room), on whichever instance it is connected.
 */
import { Answer, Candidate, Offer } from '@talkgroup/protocol';
import type { Concern } from '../context.ts';
import { peerRoom } from '../room-names.ts';
import { parse } from '../socket-tasks.ts';

export const signalling: Concern = (socket, scope) => {
  scope.on('offer', (payload) => {
    const offer = parse(Offer, payload, 'offer');
    const { channelId } = scope.requireRoom('offer');
    socket.to(peerRoom(channelId, offer.offerReceiveID)).emit('getOffer', {
      sdp: offer.sdp,
      offerSendID: socket.id,
      offerSendName: socket.data.name,
    });
  });

  scope.on('answer', (payload) => {
    const answer = parse(Answer, payload, 'answer');
    const { channelId } = scope.requireRoom('answer');
    socket.to(peerRoom(channelId, answer.answerReceiveID)).emit('getAnswer', {
      sdp: answer.sdp,
      answerSendID: socket.id,
    });
  });

  scope.on('candidate', (payload) => {
    const candidate = parse(Candidate, payload, 'candidate');
    const { channelId } = scope.requireRoom('candidate');
    socket.to(peerRoom(channelId, candidate.candidateReceiveID)).emit('getCandidate', {
      candidate: candidate.candidate,
      candidateSendID: socket.id,
    });
  });
};
