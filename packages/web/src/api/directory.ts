/**
 * The team directory as the console reads it: every user and every channel (spec section 7, getAllUsers and
 * getAllChannels), kept fresh by the server's pushes and by refreshDirectory() after a change made here.
 * Shared by the users, channels, import-export and room features.
 *
 *   useUsers() / useChannels()   TanStack queries of the two lists
 *   useRefreshDirectory()        () => invalidates users, channels, members of channels and dashboard figures
 *   refreshDirectory(client)     the same, for a mutation's onSuccess
 *   useLiveChannels()            subscribes the calling list to channel and presence pushes
 */
import {
  GetAllChannels,
  GetAllUsers,
  GetLastActivities,
  GetStatistics,
  GetUsersInChannel,
  type ResponseOf,
} from '@talkgroup/protocol';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { callKey, useApiQuery } from './queries.ts';
import { useServerEvent, useServerEvents } from './serverEvents.ts';

export function useUsers() {
  return useApiQuery(GetAllUsers, {});
}

export function useChannels() {
  return useApiQuery(GetAllChannels, {});
}

/** Every query a change of users, channels or memberships can touch; resolves once they are fetched again. */
export async function refreshDirectory(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [GetAllUsers, GetAllChannels, GetUsersInChannel, GetStatistics, GetLastActivities].map((call) =>
      queryClient.invalidateQueries({ queryKey: callKey(call) }),
    ),
  );
}

export function useRefreshDirectory(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => refreshDirectory(queryClient), [queryClient]);
}

type ChannelsAnswer = ResponseOf<typeof GetAllChannels>;

/** The channel list with these connected counts (the others as they were); the same object when none changed. */
export function patchConnected(
  answer: ChannelsAnswer | undefined,
  counts: Array<{ channelId: number; connected: number }>,
): ChannelsAnswer | undefined {
  if (!answer || counts.length === 0) return answer;
  const byId = new Map(counts.map((c) => [c.channelId, c.connected]));
  let changed = false;
  const res = answer.res.map((channel) => {
    const connected = byId.get(channel.id);
    if (connected === undefined || connected === channel.connected) return channel;
    changed = true;
    return { ...channel, connected };
  });
  return changed ? { ...answer, res } : answer;
}

/**
 * The channels list follows channel changes and who is connected where. Presence changes patch the cached
 * list with the connected counts they carry (onUserStatusesChanged: the list is not fetched again, 3 MB at
 * 10,000 users); the spec's per-user events (an older server) still refetch it.
 */
export function useLiveChannels(): void {
  const queryClient = useQueryClient();
  useServerEvents(
    ['onChannelsChanged', 'onChannelDeleted', 'onUserStatusChanged', 'userConnected', 'onUserDeleted'],
    () => {
      void queryClient.invalidateQueries({ queryKey: callKey(GetAllChannels) });
      void queryClient.invalidateQueries({ queryKey: callKey(GetUsersInChannel) });
    },
  );
  useServerEvent('onUserStatusesChanged', ({ connected }) => {
    queryClient.setQueriesData<ChannelsAnswer>({ queryKey: callKey(GetAllChannels) }, (answer) =>
      patchConnected(answer, connected ?? []),
    );
  });
  // A channel's member list (its page) shows who is connected: it is small, it is fetched again.
  useServerEvents(['onUserStatusesChanged'], () => {
    void queryClient.invalidateQueries({ queryKey: callKey(GetUsersInChannel) });
  });
}
