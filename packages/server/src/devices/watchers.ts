/**
 * Who may see a member's device status and ask its phone for a fresh one (issue 60 item 4): an administrator
 * (`channel.devices` everywhere), or a dispatcher of one of the member's channels. The one rule, asked by the
 * routes; the pushes go to the same people (ADMINS_ROOM and the supervisor rooms of the member's channels).
 */
import { may } from '@talkgroup/protocol';
import type { ChannelAccess, Reader } from '../channels/access.ts';
import type { MembershipStore } from '../channels/membership.ts';
import { forbidden, notFound } from '../http/errors.ts';

export interface DeviceWatcherServices {
  access: ChannelAccess;
  memberships: MembershipStore;
  users: { row(id: number): Promise<unknown> };
}

export function deviceWatchers(services: DeviceWatcherServices) {
  return {
    /** Refuses (403, or 404 for an administrator asking about nobody) unless `reader` watches this user. */
    async require(reader: Reader, userId: number): Promise<void> {
      if (may(reader, null, 'channel.devices')) {
        if (!(await services.users.row(userId))) throw notFound('user_not_found');
        return;
      }
      // A dispatcher learns nothing of a user outside its channels, not even whether it exists.
      const channels = await services.memberships.channelsOfMember(userId);
      for (const channel of channels) if (await services.access.may(reader, channel.id, 'channel.devices')) return;
      throw forbidden('not_allowed');
    },
  };
}
