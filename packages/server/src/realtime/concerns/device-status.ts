/**
 * Device status (issue 60 item 4): /talk reports its phone's battery, network, visibility, wake lock, position
 * accuracy, app version and push subscription (`device_status`) on connect, on each change and when asked. The
 * report is validated (a bad one is refused with a clear ack, the socket stays), kept as the member's latest, and
 * pushed to the consoles that watch the member: administrators and the dispatchers of its channels.
 */
import { DeviceStatusReport } from '@talkgroup/protocol';
import { ADMINS_ROOM, supervisorRoom } from '../../sockets/room-names.ts';
import type { Concern } from '../context.ts';
import { parse } from '../socket-tasks.ts';

export const deviceStatus: Concern = (socket, scope) => {
  const { services } = scope;
  const { userId, sessionId } = socket.data;
  scope.on('device_status', async (payload) => {
    const report = parse(DeviceStatusReport, payload, 'device_status');
    // Only /talk reports its device: a client too old to say so in its handshake is known by this.
    socket.data.talkPage = true;
    const stored = await services.deviceStatuses.save(userId, sessionId, report);
    const channels = await services.memberships.channelsOfMember(userId);
    const { sessionId: _session, ...status } = stored;
    // The page that just reported is open: that is what the console shows.
    scope.emitTo([ADMINS_ROOM, ...channels.map((channel) => supervisorRoom(channel.id))], 'device_status', {
      ...status,
      appOpen: true,
    });
  });
};
