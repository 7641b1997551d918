/**
 * Positions reported by phones: every one kept, pushed to whoever may see the member on a map, then checked
 * against the geofences that watch the member (an alert for each crossing, geofences/watch.ts) and the zones of
 * area channels (a member in the zone joins the channel, areas/follow.ts).
 */
import { LocationChanged, POSITION_ACTIVITY_INTERVAL_MS } from '@talkgroup/protocol';
import { ADMINS_ROOM, mapRoom } from '../../sockets/room-names.ts';
import type { Concern } from '../context.ts';
import { parse } from '../socket-tasks.ts';

export const positions: Concern = (socket, scope) => {
  const { services } = scope;
  const { userId } = socket.data;
  scope.on('onLocationChanged', async (payload) => {
    const reported = parse(LocationChanged, payload, 'onLocationChanged');
    const position = await services.positions.add(userId, reported);
    const channels = await services.memberships.channelsOfMember(userId);
    const { lat, lng, accuracy, createdAt } = position;
    scope.emitTo([ADMINS_ROOM, ...channels.map((channel) => mapRoom(channel.rtcSession))], 'onLocationChanged', {
      userId,
      lat,
      lng,
      accuracy,
      createdAt,
    });
    // The position is kept and shown whatever happens to its check: a failed check is the server's to log.
    await services.geofenceWatch
      .check(
        userId,
        position,
        channels.map((channel) => channel.id),
      )
      .catch((error: unknown) => scope.log.error({ err: error, userId }, 'geofence check failed'));
    // Area channels (issue 59): a first position in a channel's zone makes a member of it now.
    await services.areaChannels
      .report(userId, position)
      .catch((error: unknown) => scope.log.error({ err: error, userId }, 'area channel check failed'));
    // Every position is kept; the activity log gets at most one entry per interval.
    const since = new Date(Date.now() - POSITION_ACTIVITY_INTERVAL_MS);
    if (!(await services.activities.recordedSince(userId, 'position_update', since)))
      await services.activities.record('position_update', { userId });
  });
};
