/**
 * What a user may do in a channel: protocol's `may(user, channel, capability)` over the user's standing there
 * (a member or not, and whether its membership may talk). HTTP routes, socket events and file links all ask
 * here; the rule itself is written once, in protocol's roles.ts.
 *
 * A private call's hidden channel is no channel here (issue 35): no role holds any right in it, administrators
 * included, and every question about it is answered as for a channel that does not exist. Its two parties reach
 * it through their call only (private-calls.ts: the room while answered, and its voice history).
 */
import { type Actor, type Capability, type ChannelStanding, may } from '@talkgroup/protocol';
import { HttpError } from '../http/errors.ts';
import { type MembershipStore, standingOf } from './membership.ts';
import type { ChannelStore, ChannelSummary } from './store.ts';

/** Who asks: a token's or a socket's user. */
export interface Reader extends Actor {
  userId: number;
}

type Refusal = 'not-member' | 'not-allowed' | 'no-channel';

/**
 * A refusal of the rule. HTTP answers its status and sentence; a socket event names the channel instead
 * (its client is already in the product, it knows which channel it asked for).
 */
export class ChannelAccessError extends HttpError {
  readonly reason: Refusal;
  readonly channelId: number;
  /** The channel refused, when it exists. */
  readonly channel?: ChannelSummary;

  constructor(reason: Refusal, channelId: number, channel?: ChannelSummary) {
    super(
      reason === 'no-channel' ? 404 : 403,
      reason === 'no-channel' ? 'channel_not_found' : reason === 'not-member' ? 'not_channel_member' : 'not_allowed',
    );
    this.reason = reason;
    this.channelId = channelId;
    this.channel = channel;
  }

  /** The sentence a socket event answers, prefixed by the event's name. */
  forSocket(event: string): string {
    if (this.reason === 'not-member' && this.channel)
      return `${event}: you are not a member of the channel "${this.channel.name}".`;
    if (this.reason === 'not-allowed' && this.channel)
      return `${event}: your rights do not allow this in the channel "${this.channel.name}".`;
    return `${event}: there is no channel with id ${this.channelId}.`;
  }
}

export function channelAccess(channels: ChannelStore, memberships: MembershipStore) {
  /**
   * The channel (if it exists), the reader's standing there and its names, if `reader` may do `capability`
   * in it: one query. Membership is asked first: a non-member learns nothing of a channel, not even whether it
   * exists (403 either way); one who holds the capability everywhere gets a 404 for a missing channel.
   * `historyFrom`: from when the reader reads the channel's history (an area's member: from its entry); undefined
   * for all of it (a membership made by hand or by a regroup, or a right held everywhere).
   */
  async function require(reader: Reader, channelId: number, capability: Capability) {
    const read = await channels.forWriter(channelId, reader.userId);
    // A hidden channel: answered as a channel that does not exist.
    const found = read?.channel?.hidden ? { ...read, channel: undefined, member: false } : read;
    const standing: ChannelStanding = found?.member
      ? { member: true, canTalk: found.canTalk, memberRightsOnly: found.memberRightsOnly }
      : { member: false };
    if (!may(reader, standing, capability))
      throw new ChannelAccessError(standing.member ? 'not-allowed' : 'not-member', channelId, found?.channel);
    if (!found?.channel) throw new ChannelAccessError('no-channel', channelId);
    const historyFrom =
      found.member && found.historyFrom !== null && !may(reader, null, 'channel.read') ? found.historyFrom : undefined;
    return { channel: found.channel, standing, author: found.author, historyFrom };
  }

  return {
    require,

    /**
     * The reader's standing in a channel: a member or not, and whether its membership may talk. A hidden channel
     * has no members; callers about a channel (not a user) look it up with `channels.listed` first.
     */
    async standing(reader: Reader, channelId: number): Promise<ChannelStanding> {
      return standingOf(await memberships.rights(channelId, reader.userId));
    },

    /** May `reader` do `capability` in this channel? Never in a private call's hidden channel. */
    async may(reader: Reader, channelId: number, capability: Capability): Promise<boolean> {
      // Held everywhere: in every channel there is (a hidden one is none); a missing channel changes nothing.
      if (may(reader, null, capability)) return !(await channels.isHidden(channelId));
      return may(reader, standingOf(await memberships.rights(channelId, reader.userId)), capability);
    },

    /**
     * May `reader` read what the channel kept at `at` (a file link's image, transmission or recording)? An area's
     * member reads from its entry on; never in a private call's hidden channel.
     */
    async mayReadAt(reader: Reader, channelId: number, at: string): Promise<boolean> {
      if (may(reader, null, 'channel.read')) return !(await channels.isHidden(channelId));
      const rights = await memberships.rights(channelId, reader.userId);
      if (!may(reader, standingOf(rights), 'channel.read')) return false;
      return !rights?.historyFrom || Date.parse(at) >= Date.parse(rights.historyFrom);
    },

    /** The channel, if `reader` may read it (its members, messages, images and voice history). */
    async requireReader(reader: Reader, channelId: number): Promise<ChannelSummary> {
      return (await require(reader, channelId, 'channel.read')).channel;
    },

    /**
     * The channel, if `reader` may read it, and from when it reads its history (`historyFrom`: an area's member,
     * from its entry; undefined: all of it). What the calls that page through a channel's history ask.
     */
    async requireHistory(reader: Reader, channelId: number) {
      const { channel, historyFrom } = await require(reader, channelId, 'channel.read');
      return { channel, historyFrom };
    },

    /** The channel and the writer's names, if `reader` may chat in it (a message). */
    async requireWriter(reader: Reader, channelId: number) {
      const { channel, author } = await require(reader, channelId, 'channel.chat');
      return { channel, author };
    },

    /**
     * The channels where `reader` may do `capability`: undefined when it may everywhere (an administrator), else
     * those of its own channels where its role grants it (a dispatcher's channels' log and alerts).
     */
    async channelsWhere(reader: Reader, capability: Capability): Promise<number[] | undefined> {
      if (may(reader, null, capability)) return undefined;
      const own = await memberships.channelsWithRights(reader.userId);
      return own.filter((rights) => may(reader, standingOf(rights), capability)).map(({ id }) => id);
    },

    /** The standing in the channel of each of these users (one query for a whole room). */
    async standingsAmong(channelId: number, readers: Reader[]): Promise<Map<number, ChannelStanding>> {
      const rights = await memberships.rightsOfChannel(channelId);
      return new Map(readers.map((r) => [r.userId, standingOf(rights.get(r.userId))]));
    },
  };
}

export type ChannelAccess = ReturnType<typeof channelAccess>;
