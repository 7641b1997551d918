/**
 * Who may see a member's device status and ask its phone for a fresh one (issue 60 item 4), and listen to its
 * surroundings (ambient/routes.ts): an administrator (`channel.devices` everywhere), or a dispatcher of one of the
 * member's channels; issue 69: down the ranks only (`mayActOn`: a dispatcher watches members, an administrator
 * anyone but himself). The one rule, asked by the routes; the pushes go to the same people (ADMINS_ROOM and the
 * supervisor rooms of the member's channels).
 */
import { may, mayActOn } from '@talkgroup/protocol';
import type { ChannelAccess, Reader } from '../channels/access.ts';
import type { MembershipStore } from '../channels/membership.ts';
import { forbidden, notFound } from '../http/errors.ts';

export interface DeviceWatcherServices {
  access: ChannelAccess;
  memberships: MembershipStore;
  users: { row(id: number): Promise<{ role: string; display_name: string } | undefined> };
}

export function deviceWatchers(services: DeviceWatcherServices) {
  /** Whether `reader` dispatches (watches the devices of) one of this user's channels. */
  async function sharesChannel(reader: Reader, userId: number): Promise<boolean> {
    const channels = await services.memberships.channelsOfMember(userId);
    for (const channel of channels) if (await services.access.may(reader, channel.id, 'channel.devices')) return true;
    return false;
  }

  return {
    /**
     * Refuses (403, or 404 for an administrator asking about nobody) unless `reader` watches this user: its
     * channel first, then its rank (the target's role asked only of one who may watch it at all). Answers the user.
     */
    async require(reader: Reader, userId: number): Promise<{ role: string; display_name: string }> {
      const everywhere = may(reader, null, 'channel.devices');
      // A dispatcher learns nothing of a user outside its channels, not even whether it exists.
      if (!everywhere && !(await sharesChannel(reader, userId))) throw forbidden('not_allowed');
      const target = await services.users.row(userId);
      if (!target) throw everywhere ? notFound('user_not_found') : forbidden('not_allowed');
      if (userId === reader.userId || !mayActOn(reader, target.role)) throw forbidden('role_not_below_yours');
      return target;
    },
  };
}
