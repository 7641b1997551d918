/**
 * The emergency alert over the socket (`emergency_alert`, the same as POST /user/api/sendEmergencyAlert), and
 * what an alert means for the floor: the sender gets the floor of its channel with top priority for
 * EMERGENCY_FLOOR_MS (open microphone: `floor_granted`), on whichever instance its socket is; an SOS raised for a
 * member by someone else only as the safety settings say (`emergencyOpenMic`, issue 69).
 */
import { EMERGENCY_FLOOR_MS, EmergencyAlertInput } from '@talkgroup/protocol';
import type { EventBus } from '../../events.ts';
import { pressRefusal } from '../../floor/policy.ts';
import { HttpError } from '../../http/errors.ts';
import type { Concern, LocalSocket } from '../context.ts';
import { participationIn } from '../participations.ts';
import { parse, SocketInputError } from '../socket-tasks.ts';
import { talkerOf } from './floor.ts';

export const emergency: Concern = (socket, scope) => {
  scope.answer('emergency_alert', async (payload) => {
    const input = parse(EmergencyAlertInput, payload, 'emergency_alert');
    try {
      const origin = { address: socket.handshake.address ?? null, requestId: null };
      return { success: true, res: await scope.services.emergency.raise(socket.data, input, origin) };
    } catch (error) {
      // A refusal the HTTP call answers with its status (429, 403, 404): the socket gets its sentence.
      if (error instanceof HttpError) throw new SocketInputError(`emergency_alert: ${error.message}`);
      throw error;
    }
  });
};

/**
 * Gives the floor to the sender's sockets in the alert's channel that this instance holds, when the alert opens its
 * microphone (`openMic`: its own SOS, or one raised for it where the organisation allows it). Its own SOS opens it
 * whatever its mode or rights there; one raised for it by someone else never where it only listens (issue 69).
 */
export function emergencyFloor(events: EventBus, local: Map<string, LocalSocket>): () => void {
  return events.on('emergencyRaised', ({ alert, channel, openMic }) => {
    if (!channel || alert.userId === null || !openMic) return;
    const own = !alert.raisedBy;
    for (const { socket, scope } of local.values()) {
      if (socket.disconnected || socket.data.userId !== alert.userId || !participationIn(socket.data, channel.id))
        continue;
      void scope.run('emergency_alert', async () => {
        const at = participationIn(socket.data, channel.id);
        if (!at || pressRefusal(at, own)) return;
        const { answer, changes } = await scope.talk.press(talkerOf(socket), at, {
          emergency: true,
          holdMs: EMERGENCY_FLOOR_MS,
        });
        // Only another emergency holds a floor an emergency cannot take: that one goes on.
        if (!answer.granted) return;
        socket.emit('floor_granted', {
          room: at.room,
          reason: 'emergency',
          holdMs: EMERGENCY_FLOOR_MS,
          grantId: answer.grantId,
          // Issue 70: why the microphone is on, for the member's phone to say so.
          alert: { id: alert.id, reason: alert.reason, raisedBy: alert.raisedBy?.display_name ?? null },
        });
        await scope.talk.record(changes);
      });
    }
  });
}
