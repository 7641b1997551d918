/**
 * Who may read a channel (its room, members, messages and files): an administrator, or a member of the
 * channel. The one place this rule is written; HTTP routes, socket events and file links all ask it.
 */
import type { Role } from '@talkgroup/protocol';
import { HttpError } from '../http/errors.ts';
import type { MembershipStore } from './membership.ts';
import type { ChannelStore, ChannelSummary } from './store.ts';

export interface Reader {
  userId: number;
  role: Role;
}

/**
 * A refusal of the rule. HTTP answers its status and sentence; a socket event names the channel instead
 * (its client is already in the product, it knows which channel it asked for).
 */
export class ChannelAccessError extends HttpError {
  readonly reason: 'not-member' | 'no-channel';
  readonly channelId: number;
  /** The channel refused to a non-member, when it exists. */
  readonly channel?: ChannelSummary;

  constructor(reason: 'not-member' | 'no-channel', channelId: number, channel?: ChannelSummary) {
    super(reason === 'not-member' ? 403 : 404, reason === 'not-member' ? 'not_channel_member' : 'channel_not_found');
    this.reason = reason;
    this.channelId = channelId;
    this.channel = channel;
  }

  /** The sentence a socket event answers, prefixed by the event's name. */
  forSocket(event: string): string {
    if (this.reason === 'not-member' && this.channel)
      return `${event}: you are not a member of the channel "${this.channel.name}".`;
    return `${event}: there is no channel with id ${this.channelId}.`;
  }
}

export function channelAccess(channels: ChannelStore, memberships: MembershipStore) {
  async function mayRead(reader: Reader, channelId: number): Promise<boolean> {
    return reader.role === 'admin' || memberships.isMember(channelId, reader.userId);
  }

  return {
    mayRead,

    /**
     * The channel, if `reader` may read it. Membership is asked first: a member learns nothing of a channel
     * it does not belong to, not even whether it exists (403 either way); an administrator gets a 404.
     */
    async requireReader(reader: Reader, channelId: number): Promise<ChannelSummary> {
      if (!(await mayRead(reader, channelId)))
        throw new ChannelAccessError('not-member', channelId, await channels.byId(channelId));
      const channel = await channels.byId(channelId);
      if (!channel) throw new ChannelAccessError('no-channel', channelId);
      return channel;
    },

    /**
     * requireReader for someone who writes in the channel (a chat message), with the writer's names: one query
     * instead of three. Same answers as requireReader.
     */
    async requireWriter(reader: Reader, channelId: number) {
      const found = await channels.forWriter(channelId, reader.userId);
      if (reader.role !== 'admin' && !found?.member)
        throw new ChannelAccessError('not-member', channelId, found?.channel);
      if (!found?.channel) throw new ChannelAccessError('no-channel', channelId);
      return { channel: found.channel, author: found.author };
    },

    /** Of these readers, the ids of those who may still read the channel (one query for a whole room). */
    async readersAmong(channelId: number, readers: Reader[]): Promise<Set<number>> {
      const members = await memberships.memberIds(channelId);
      return new Set(readers.filter((r) => r.role === 'admin' || members.has(r.userId)).map((r) => r.userId));
    },
  };
}

export type ChannelAccess = ReturnType<typeof channelAccess>;
