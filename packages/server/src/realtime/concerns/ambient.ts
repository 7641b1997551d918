/**
 * Ambient listening's signalling (issue 60 item 6): the member's page offers its microphone, the listener's page
 * answers, and their candidates pass, each relayed only for a live listening and only between its two parties
 * (ambient/listenings.ts decides, in Redis across instances with REDIS_URL; a stranger, an unknown listening, or the other page of a party is refused with
 * an error, never relayed). A party's page that goes ends the listening (ambient/routes.ts tells and audits).
 */
import { AmbientCandidate, AmbientDescription } from '@talkgroup/protocol';
import type { RelayTarget, SignalKind } from '../../ambient/listenings.ts';
import { listenerSockets } from '../../ambient/routes.ts';
import type { Concern } from '../context.ts';
import type { Io } from '../io.ts';
import { parse, SocketInputError } from '../socket-tasks.ts';

async function relayTo<P>(
  io: Io,
  target: RelayTarget,
  event: 'ambient_offer' | 'ambient_answer' | 'ambient_candidate',
  payload: P,
) {
  const emit = (to: { emit: (event: string, payload: P) => unknown }) => to.emit(event, payload);
  if ('socketId' in target) {
    emit(io.to(target.socketId) as never);
    return;
  }
  const { userId, sessionId } = target.listenerSession;
  for (const socket of await listenerSockets(io, { listenerId: userId, listenerSessionId: sessionId }))
    emit(socket as never);
}

export const ambient: Concern = (socket, scope) => {
  const { io, ambient: listenings } = scope;
  const party = () => ({ id: socket.id, userId: socket.data.userId, sessionId: socket.data.sessionId });

  const signal = (event: 'ambient_offer' | 'ambient_answer' | 'ambient_candidate', kind: SignalKind) =>
    scope.on(event, async (payload) => {
      const parsed = parse(kind === 'candidate' ? AmbientCandidate : AmbientDescription, payload, event);
      const target = await listenings.relay(parsed.listeningId, party(), kind);
      if (!target) throw new SocketInputError(`${event}: no such ambient listening of yours.`);
      await relayTo(io, target, event, parsed);
    });
  signal('ambient_offer', 'offer');
  signal('ambient_answer', 'answer');
  signal('ambient_candidate', 'candidate');

  socket.on(
    'disconnect',
    () =>
      void listenings
        .socketClosed(socket.id)
        .catch((error) => scope.log.warn({ err: error }, 'could not end the ambient listenings of a page gone')),
  );
};
