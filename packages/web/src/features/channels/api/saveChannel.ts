/**
 * Add Channel / Update Channel (spec section 8): createChannel or updateChannel, then updateUserChannels when the
 * chosen members differ from the channel's.
 */
import { type Channel, CreateChannel, rtcSessionOf, UpdateChannel, UpdateUserChannels } from '@talkgroup/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { refreshDirectory } from '../../../api/directory.ts';

export interface SaveChannelInput {
  /** The channel to update; absent to create one. */
  channel?: Channel | null;
  channelName: string;
  userIds: number[];
}

export async function saveChannel({ channel, channelName, userIds }: SaveChannelInput): Promise<Channel> {
  const saved = channel
    ? (await api(UpdateChannel, { channelId: channel.id, channelName })).res
    : (await api(CreateChannel, { channelName, channelRtcSession: rtcSessionOf(channelName) })).res;
  const before = new Set(channel?.users.map((user) => user.id) ?? []);
  const changed = userIds.length !== before.size || userIds.some((id) => !before.has(id));
  if (changed) await api(UpdateUserChannels, { userList: userIds, channelId: saved.id });
  return saved;
}

export function useSaveChannel() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: saveChannel, onSuccess: () => refreshDirectory(queryClient) });
}
