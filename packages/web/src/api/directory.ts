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
import { GetAllChannels, GetAllUsers, GetLastActivities, GetStatistics, GetUsersInChannel } from '@talkgroup/protocol';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { callKey, useApiQuery } from './queries.ts';
import { useServerEvents } from './serverEvents.ts';

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

/** The channels list follows channel changes and who is connected where. */
export function useLiveChannels(): void {
  const queryClient = useQueryClient();
  useServerEvents(
    [
      'onChannelsChanged',
      'onChannelDeleted',
      'onUserStatusesChanged',
      'onUserStatusChanged',
      'userConnected',
      'onUserDeleted',
    ],
    () => {
      void queryClient.invalidateQueries({ queryKey: callKey(GetAllChannels) });
      void queryClient.invalidateQueries({ queryKey: callKey(GetUsersInChannel) });
    },
  );
}
