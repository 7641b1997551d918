/**
 * Who sees a live stream (issue 61): the administrators and those who hold `channel.videoWatch` in its channel
 * (its dispatchers), or every member of the channel where its videoAudience is 'channel'; the sharer's own pages
 * too. A private call's stream (its hidden channel) is its two parties' only, administrators included: nobody
 * else learns it exists. One rule for the pushes (`video_started`, `video_ended`), getLiveVideos and `video_watch`.
 */
import { type Actor, may } from '@talkgroup/protocol';
import { type MembershipRights, standingOf } from '../channels/membership.ts';
import type { ChannelSummary } from '../channels/summary.ts';
import type { Db } from '../db/schema.ts';
import { ADMINS_ROOM, userRoom } from '../sockets/room-names.ts';

/** Who asks: a socket's or a token's user. */
export interface Watcher extends Actor {
  userId: number;
}

/** What of a stream its audience depends on. */
export interface AudienceOf {
  channelId: number;
  room: string;
  hidden: boolean;
  userId: number;
}

/** The two users of a private call's hidden room (channels/private-channel.ts names it after them). */
export function privateParties(room: string): [number, number] | undefined {
  const match = /^private {2}call {2}(\d+) {2}(\d+)$/.exec(room);
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

export function videoAudience(db: Db, channels: { byId(id: number): Promise<ChannelSummary | undefined> }) {
  const membersOf = (channelId: number) =>
    db
      .selectFrom('channel_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['m.user_id as userId', 'm.can_talk', 'm.member_rights_only', 'u.role as role'])
      .where('m.channel_id', '=', channelId)
      .execute();

  return {
    /** The Socket.IO rooms a stream's pushes go to (the sharer's own pages among them). */
    async rooms(stream: AudienceOf): Promise<string[]> {
      if (stream.hidden) return (privateParties(stream.room) ?? [stream.userId]).map(userRoom);
      const channel = await channels.byId(stream.channelId);
      const everyone = channel?.videoAudience === 'channel';
      const members = await membersOf(stream.channelId);
      const watching = members.filter(
        (m) =>
          everyone ||
          may(
            { role: m.role },
            standingOf({ canTalk: m.can_talk === 1, memberRightsOnly: m.member_rights_only === 1 }),
            'channel.videoWatch',
          ),
      );
      return [ADMINS_ROOM, userRoom(stream.userId), ...watching.map((m) => userRoom(m.userId))];
    },

    /**
     * May `watcher` see this stream? `standing`: its membership of the stream's channel, when the caller already
     * read it (undefined: not a member).
     */
    mayWatch(
      watcher: Watcher,
      stream: AudienceOf,
      channel: Pick<ChannelSummary, 'videoAudience'> | undefined,
      standing: MembershipRights | undefined,
    ): boolean {
      if (watcher.userId === stream.userId) return true;
      if (stream.hidden) return privateParties(stream.room)?.includes(watcher.userId) ?? false;
      if (may(watcher, null, 'channel.videoWatch')) return true;
      if (!standing || !channel) return false;
      return channel.videoAudience === 'channel' || may(watcher, standingOf(standing), 'channel.videoWatch');
    },
  };
}

export type VideoAudienceRule = ReturnType<typeof videoAudience>;
