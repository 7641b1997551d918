/**
 * The team directory as the console reads it: every user (spec section 7, getAllUsers) and every channel with
 * its figures but not its member list (getChannelOverviews, issue 18: at 100,000 users the members of every
 * channel are tens of MB), kept fresh by the server's pushes and by refreshDirectory() after a change made here.
 * Shared by the users, channels and room features and the import-export engine.
 *
 *   useUsers() / useChannels()   TanStack queries of the two lists
 *   useUsersPaged()              whether the organisation is past USERS_PAGED_ABOVE users (issue 18): then the
 *                                user tables ask for a page at a time (getUsersPage), never the whole list
 *   useRefreshDirectory()        () => invalidates users, channels, members of channels and dashboard figures
 *   refreshDirectory(client)     the same, for a mutation's onSuccess
 *   useLiveChannels()            subscribes the calling list to channel and presence pushes
 */
import {
  type ChannelOverview,
  GetAllUsers,
  GetChannelOverviews,
  GetLastActivities,
  GetMyChannels,
  GetStatistics,
  GetUserIds,
  GetUsersInChannel,
  GetUsersPage,
  USERS_PAGED_ABOVE,
} from '@talkgroup/protocol';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from './client.ts';
import { callKey, useApiQuery } from './queries.ts';
import { useServerEvent, useServerEvents } from './serverEvents.ts';
import { useMay } from './session.ts';

export function useUsers(options: { enabled?: boolean } = {}) {
  return useApiQuery(GetAllUsers, {}, options);
}

/**
 * True past USERS_PAGED_ABOVE users, false below, undefined until known: one user is asked for, with the count
 * of all (getUsersPage). Asked again with the directory (refreshDirectory).
 */
export function useUsersPaged({ enabled = true }: { enabled?: boolean } = {}): boolean | undefined {
  const probe = useApiQuery(GetUsersPage, { start: 0, limit: 1 }, { staleTime: 60_000, enabled });
  return probe.data ? probe.data.res.totalRecords > USERS_PAGED_ABOVE : undefined;
}

/**
 * The channels a user may list, with the number of their members, not their list: every channel for one who
 * manages them (getChannelOverviews: light at any size), its own for a dispatcher (getMyChannels).
 */
export function useChannels(options: { enabled?: boolean } = {}) {
  const manage = useMay().may('channels.manage');
  const enabled = options.enabled ?? true;
  const all = useApiQuery(GetChannelOverviews, {}, { enabled: enabled && manage });
  const mine = useQuery({
    queryKey: callKey(GetMyChannels, {}),
    queryFn: ({ signal }) => api(GetMyChannels, {}, { signal }),
    select: (answer): { res: ChannelOverview[] } => ({
      res: answer.res.map(({ users, talking: _, ...channel }) => ({ ...channel, usersCount: users.length })),
    }),
    enabled: enabled && !manage,
  });
  return manage ? all : mine;
}

/** Every query a change of users, channels or memberships can touch; resolves once they are fetched again. */
export async function refreshDirectory(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [
      GetAllUsers,
      GetUsersPage,
      GetUserIds,
      GetChannelOverviews,
      GetMyChannels,
      GetUsersInChannel,
      GetStatistics,
      GetLastActivities,
    ].map((call) => queryClient.invalidateQueries({ queryKey: callKey(call) })),
  );
}

export function useRefreshDirectory(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(() => refreshDirectory(queryClient), [queryClient]);
}

/** A channel list's answer (getChannelOverviews, getAllChannels): each channel has its connected count. */
type ChannelsAnswer = { res: Array<{ id: number; connected: number }> };

/** The channel list with these connected counts (the others as they were); the same object when none changed. */
export function patchConnected<Answer extends ChannelsAnswer>(
  answer: Answer | undefined,
  counts: Array<{ channelId: number; connected: number }>,
): Answer | undefined {
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
 * list with the connected counts they carry (onUserStatusesChanged: the list is not fetched again); the spec's
 * per-user events (an older server) still refetch it.
 */
export function useLiveChannels(): void {
  const queryClient = useQueryClient();
  useServerEvents(
    ['onChannelsChanged', 'onChannelDeleted', 'onUserStatusChanged', 'userConnected', 'onUserDeleted'],
    () => {
      for (const call of [GetChannelOverviews, GetMyChannels, GetUsersInChannel])
        void queryClient.invalidateQueries({ queryKey: callKey(call) });
    },
  );
  useServerEvent('onUserStatusesChanged', ({ connected }) => {
    for (const call of [GetChannelOverviews, GetMyChannels])
      queryClient.setQueriesData<ChannelsAnswer>({ queryKey: callKey(call) }, (answer) =>
        patchConnected(answer, connected ?? []),
      );
  });
  // A channel's member list (its page) shows who is connected: it is small, it is fetched again.
  useServerEvents(['onUserStatusesChanged'], () => {
    void queryClient.invalidateQueries({ queryKey: callKey(GetUsersInChannel) });
  });
}
