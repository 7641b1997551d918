/**
 * The emergency alert over the socket (`emergency_alert`, the same as POST /user/api/sendEmergencyAlert), and
 * what an alert means for the floor: the sender gets the floor of its channel with top priority for
 * EMERGENCY_FLOOR_MS (open microphone: `floor_granted`), on whichever instance its socket is.
 */
import { EMERGENCY_FLOOR_MS, EmergencyAlertInput } from '@talkgroup/protocol';
import type { EventBus } from '../../events.ts';
import { HttpError } from '../../http/errors.ts';
import type { Concern, LocalSocket } from '../context.ts';
import { participationIn } from '../participations.ts';
import { parse, SocketInputError } from '../socket-tasks.ts';
import { talkerOf } from './floor.ts';

export const emergency: Concern = (socket, scope) => {
  scope.answer('emergency_alert', async (payload) => {
    const input = parse(EmergencyAlertInput, payload, 'emergency_alert');
    try {
      return { success: true, res: await scope.services.emergency.raise(socket.data, input) };
    } catch (error) {
      // A refusal the HTTP call answers with its status (429, 403, 404): the socket gets its sentence.
      if (error instanceof HttpError) throw new SocketInputError(`emergency_alert: ${error.message}`);
      throw error;
    }
  });
};

/** Gives the floor to the sender's sockets in the alert's channel that this instance holds. */
export function emergencyFloor(events: EventBus, local: Map<string, LocalSocket>): () => void {
  return events.on('emergencyRaised', ({ alert, channel }) => {
    if (!channel || alert.userId === null) return;
    for (const { socket, scope } of local.values()) {
      if (socket.disconnected || socket.data.userId !== alert.userId || !participationIn(socket.data, channel.id))
        continue;
      void scope.run('emergency_alert', async () => {
        const at = participationIn(socket.data, channel.id);
        if (!at) return;
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
        });
        await scope.talk.record(changes);
      });
    }
  });
}
