/**
 * The team directory as the users and channels screens read it: every user and every channel (spec section 7,
 * getAllUsers and getAllChannels), kept fresh by the server's pushes (onUsersChanged, onChannelsChanged,
 * onUserStatusChanged, ...) and by refreshDirectory() after a change made here.
 *
 *   useUsers() / useChannels()   TanStack queries of the two lists
 *   useRefreshDirectory()        () => invalidates users, channels, members of channels and dashboard figures
 *   useLiveUsers() / useLiveChannels()   subscribe the calling list to the server's pushes
 */
import {
  type Activity,
  GetAllChannels,
  GetAllUsers,
  GetLastActivities,
  GetStatistics,
  GetUsersInChannel,
  type ResponseOf,
} from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { callKey, useApiQuery } from '../../api/queries.ts';
import { useServerEvent, useServerEvents } from '../../api/serverEvents.ts';

/** How long activities are gathered before the users list shows them. */
const ACTIVITY_PATCH_MS = 1500;

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

/** The users list follows user changes and each user's latest activity. */
export function useLiveUsers(): void {
  const queryClient = useQueryClient();
  useServerEvents(['onUsersChanged', 'onUserDeleted'], () => {
    void queryClient.invalidateQueries({ queryKey: callKey(GetAllUsers) });
  });
  // A new activity only changes one user's 'last activity': patch it in place rather than reload every user,
  // and gather the activities of a moment into one patch (a busy team sends many; each patch re-renders the list).
  const pending = useRef(new Map<number, Activity>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useServerEvent('onActivity', (activity) => {
    const userId = activity.user?.id;
    if (!userId) return;
    pending.current.set(userId, activity);
    timer.current ??= setTimeout(() => {
      timer.current = undefined;
      const latest = pending.current;
      pending.current = new Map();
      queryClient.setQueriesData<ResponseOf<typeof GetAllUsers>>({ queryKey: callKey(GetAllUsers) }, (data) =>
        data?.res
          ? {
              ...data,
              res: data.res.map((user) => {
                const activity = latest.get(user.id);
                return activity ? { ...user, userActivities: [activity] } : user;
              }),
            }
          : data,
      );
    }, ACTIVITY_PATCH_MS);
  });
}

/** The channels list follows channel changes and who is connected where. */
export function useLiveChannels(): void {
  const queryClient = useQueryClient();
  useServerEvents(
    ['onChannelsChanged', 'onChannelDeleted', 'onUserStatusChanged', 'userConnected', 'onUserDeleted'],
    () => {
      void queryClient.invalidateQueries({ queryKey: callKey(GetAllChannels) });
      void queryClient.invalidateQueries({ queryKey: callKey(GetUsersInChannel) });
    },
  );
}
