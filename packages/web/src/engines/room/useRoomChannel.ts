/**
 * The channel of a room. {roomId} is the channel's rtcSession (spec section 2); the channel name and id are
 * kept in local storage as the spec's browser storage says, and the list of channels confirms them (an
 * administrator reads every channel, without their member lists: getChannelOverviews; a member its own).
 */
import { type ChannelOverview, GetChannelOverviews, GetMyChannels } from '@talkgroup/protocol';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from '../../api/client.ts';
import { callKey } from '../../api/queries.ts';
import { writeRoomStorage } from '../../api/roomStorage.ts';

/** What a room needs of its channel, whichever list it came from. */
export type RoomChannel = Omit<ChannelOverview, 'usersCount'>;

const NO_CHANNELS: RoomChannel[] = [];

function remember(channel: RoomChannel): void {
  writeRoomStorage({ roomId: channel.rtcSession, channelId: String(channel.id), channelName: channel.name });
}

export interface RoomChannelOptions {
  /** Those who manage channels list every one; the others their own. */
  all: boolean;
  /** Token of a call-view link, instead of the session's. */
  token?: string;
  /** Find the channel by id rather than by rtcSession (the user call view's link carries the id). */
  channelId?: number;
}

export function useRoomChannel(roomId: string | undefined, { all, token, channelId }: RoomChannelOptions) {
  const call = all ? GetChannelOverviews : GetMyChannels;
  const query = useQuery<{ res: RoomChannel[] }, Error, RoomChannel[]>({
    queryKey: [...callKey(call, {}), ...(token ? ['link'] : [])],
    // The full response, as useApiQuery keeps it under the same key on the channels page.
    queryFn: async ({ signal }) => {
      const response = await api(call, {}, { signal, token });
      // A call-view link may belong to an administrator who is not a member of the channel.
      if (!all && token && channelId !== undefined && !response.res.some((c) => c.id === channelId)) {
        return api(GetChannelOverviews, {}, { signal, token }).catch(() => response);
      }
      return response;
    },
    select: (response) => response.res,
    enabled: Boolean(roomId) || channelId !== undefined,
  });
  const channel =
    query.data?.find((candidate) =>
      channelId !== undefined ? candidate.id === channelId : candidate.rtcSession === roomId,
    ) ?? null;
  // The channel this page was showing: if it is renamed, its room key changes and the page follows it.
  const shownId = useRef<number | null>(null);
  if (channel) shownId.current = channel.id;
  const renamed =
    !channel && shownId.current !== null ? (query.data?.find((c) => c.id === shownId.current) ?? null) : null;

  useEffect(() => {
    if (channel) remember(channel);
  }, [channel]);

  return {
    channel,
    /** Every channel of the list this user reads (all of them for one who manages channels; else its own). */
    channels: query.data ?? NO_CHANNELS,
    /** The channel that was shown here, now under another room key (renamed). */
    renamed,
    isLoading: query.isLoading,
    error: query.error,
    /** The list arrived and this room is not in it (deleted channel, or not a member). */
    notFound: query.isSuccess && !channel && !renamed,
  };
}
