/**
 * The users list's live part: it follows user changes and each user's latest activity (spec section 2, 'last
 * activity'). A new activity only changes one user's row, so it is patched into the cached getAllUsers answer
 * rather than reloading every user, and the activities of a moment are gathered into one patch (a busy team
 * sends many; each patch re-renders the list).
 *
 *   useLiveUsers()                        subscribes the calling list to the server's pushes
 *   gatherActivities(flush, delayMs)      keeps each user's latest activity, flushes them once per delay
 *   patchLatestActivities(client, latest) writes them into every cached getAllUsers answer and users page
 */
import { type Activity, GetAllUsers, GetUsersPage, type ResponseOf } from '@talkgroup/protocol';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { callKey } from '../../api/queries.ts';
import { useServerEvent, useServerEvents } from '../../api/serverEvents.ts';

/** How long activities are gathered before the users list shows them. */
export const ACTIVITY_PATCH_MS = 1500;

type UsersAnswer = ResponseOf<typeof GetAllUsers>;
type UsersPageAnswer = ResponseOf<typeof GetUsersPage>;

/** Each user's latest activity by user id; users without one in `latest` keep their row object. */
export function withLatestActivities(data: UsersAnswer | undefined, latest: ReadonlyMap<number, Activity>) {
  if (!data?.res) return data;
  return {
    ...data,
    res: data.res.map((user) => {
      const activity = latest.get(user.id);
      return activity ? { ...user, userActivities: [activity] } : user;
    }),
  };
}

/** The same for a page of a paged users table (getUsersPage). */
export function pageWithLatestActivities(data: UsersPageAnswer | undefined, latest: ReadonlyMap<number, Activity>) {
  if (!data?.res) return data;
  const users = withLatestActivities({ success: data.success, res: data.res.users }, latest)?.res ?? [];
  return { ...data, res: { ...data.res, users } };
}

export function patchLatestActivities(queryClient: QueryClient, latest: ReadonlyMap<number, Activity>): void {
  queryClient.setQueriesData<UsersAnswer>({ queryKey: callKey(GetAllUsers) }, (data) =>
    withLatestActivities(data, latest),
  );
  queryClient.setQueriesData<UsersPageAnswer>({ queryKey: callKey(GetUsersPage) }, (data) =>
    pageWithLatestActivities(data, latest),
  );
}

export interface ActivityGatherer {
  /** Keeps the activity as its user's latest; an activity without a user is ignored. */
  add(activity: Activity): void;
  /** Drops what is waiting (the list is gone). */
  cancel(): void;
}

/** The first activity starts the delay; when it ends, `flush` gets each user's last activity of that moment. */
export function gatherActivities(
  flush: (latest: Map<number, Activity>) => void,
  delayMs = ACTIVITY_PATCH_MS,
): ActivityGatherer {
  let pending = new Map<number, Activity>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    add(activity) {
      const userId = activity.user?.id;
      if (!userId) return;
      pending.set(userId, activity);
      timer ??= setTimeout(() => {
        timer = undefined;
        const latest = pending;
        pending = new Map();
        flush(latest);
      }, delayMs);
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      pending = new Map();
    },
  };
}

/** The users list follows user changes and each user's latest activity. */
export function useLiveUsers(): void {
  const queryClient = useQueryClient();
  useServerEvents(['onUsersChanged', 'onUserDeleted'], () => {
    void queryClient.invalidateQueries({ queryKey: callKey(GetAllUsers) });
    void queryClient.invalidateQueries({ queryKey: callKey(GetUsersPage) });
  });
  const gatherer = useRef<ActivityGatherer | null>(null);
  gatherer.current ??= gatherActivities((latest) => patchLatestActivities(queryClient, latest));
  useEffect(() => () => gatherer.current?.cancel(), []);
  useServerEvent('onActivity', (activity) => gatherer.current?.add(activity));
}
