/**
 * The team directory as the users and channels screens read it: every user and every channel (spec section 7,
 * getAllUsers and getAllChannels), kept fresh by the server's pushes (onUsersChanged, onChannelsChanged,
 * onUserStatusChanged, ...) and by refreshDirectory() after a change made here.
 *
 *   useUsers() / useChannels()   TanStack queries of the two lists
 *   useRefreshDirectory()        () => invalidates users, channels, members of channels and dashboard figures
 *   useLiveDirectory()           subscribes the calling screen to the server's pushes
 */
import {
  GetAllChannels,
  GetAllUsers,
  GetLastActivities,
  GetStatistics,
  GetUsersInChannel,
  type ResponseOf,
} from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { callKey, useApiQuery } from '../../api/queries.ts';
import { useServerEvent, useServerEvents } from '../../api/serverEvents.ts';

export function useUsers() {
  return useApiQuery(GetAllUsers, {});
}

export function useChannels() {
  return useApiQuery(GetAllChannels, {});
}

export function useRefreshDirectory(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all(
      [GetAllUsers, GetAllChannels, GetUsersInChannel, GetStatistics, GetLastActivities].map((call) =>
        queryClient.invalidateQueries({ queryKey: callKey(call) }),
      ),
    );
  }, [queryClient]);
}

export function useLiveDirectory(): void {
  const queryClient = useQueryClient();
  useServerEvents(['onUsersChanged', 'onUserDeleted'], () => {
    void queryClient.invalidateQueries({ queryKey: callKey(GetAllUsers) });
  });
  // A new activity only changes one user's 'last activity': patch it in place rather than reload every user.
  useServerEvent('onActivity', (activity) => {
    const userId = activity.user?.id;
    if (!userId) return;
    queryClient.setQueriesData<ResponseOf<typeof GetAllUsers>>({ queryKey: callKey(GetAllUsers) }, (data) =>
      data?.res
        ? {
            ...data,
            res: data.res.map((user) => (user.id === userId ? { ...user, userActivities: [activity] } : user)),
          }
        : data,
    );
  });
  useServerEvents(
    ['onChannelsChanged', 'onChannelDeleted', 'onUserStatusChanged', 'userConnected', 'onUserDeleted'],
    () => {
      void queryClient.invalidateQueries({ queryKey: callKey(GetAllChannels) });
      void queryClient.invalidateQueries({ queryKey: callKey(GetUsersInChannel) });
    },
  );
}
