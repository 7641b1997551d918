/**
 * Members' statuses (issue 49), shared by the talk page, the settings, the dispatch tiles, the users list, a
 * channel's participants and the map:
 *
 *   useStatuses()          the organisation's list (listStatuses), fetched again on `statusesChanged`
 *   useMemberStatuses()    Map userId -> { status, since, setBy } of the users the caller may see
 *                          (getMemberStatuses), patched by `memberStatusChanged`, fetched again after a
 *                          reconnection or a change of the list
 *   useSetMyStatus() / useSetUserStatus()   the mutations; their answer patches the map at once
 *   statusLabel(status, language)           the label in a language (French when unknown)
 */
import {
  GetMemberStatuses,
  ListStatuses,
  type MemberStatus,
  SetMyStatus,
  SetUserStatus,
  type Status,
} from '@talkgroup/protocol';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { toLanguage } from '../i18n/languages.ts';
import { callKey, useApiMutation, useApiQuery } from './queries.ts';
import { useServerEvent, useServerEvents } from './serverEvents.ts';

export type { MemberStatus, Status } from '@talkgroup/protocol';

/** A user's status as the pages show it: the status itself (from the list), since when, set by whom. */
export interface MemberStatusEntry {
  status: Status;
  since: string | null;
  setBy: MemberStatus['setBy'];
}

export function statusLabel(status: Status, language: string | undefined): string {
  return status.label[toLanguage(language)];
}

/** The organisation's statuses, in their order, kept live. */
export function useStatuses(options: { enabled?: boolean } = {}) {
  const queryClient = useQueryClient();
  useServerEvents(['statusesChanged'], () => {
    void queryClient.invalidateQueries({ queryKey: callKey(ListStatuses) });
  });
  return useApiQuery(ListStatuses, {}, { staleTime: 5 * 60_000, ...options });
}

type MemberStatusesAnswer = { res: MemberStatus[] };

/** The cached answer with this user's status replaced (removed when it has none). */
export function patchMemberStatus(
  answer: MemberStatusesAnswer | undefined,
  change: MemberStatus,
): MemberStatusesAnswer | undefined {
  if (!answer) return answer;
  const others = answer.res.filter((entry) => entry.userId !== change.userId);
  return { ...answer, res: change.statusId === null ? others : [...others, change] };
}

/** Patches every cached getMemberStatuses answer that may hold this user (those asked for some users only). */
function applyMemberStatus(queryClient: QueryClient, change: MemberStatus): void {
  for (const [key, answer] of queryClient.getQueriesData<MemberStatusesAnswer>({
    queryKey: callKey(GetMemberStatuses),
  })) {
    const asked = (key[1] as { userIds?: number[] } | undefined)?.userIds;
    if (asked && !asked.includes(change.userId)) continue;
    queryClient.setQueryData(key, patchMemberStatus(answer, change));
  }
}

/**
 * The statuses of the users the caller may see (only `userIds` when given): a Map userId -> { status, since,
 * setBy }. A user without a status (or with one no longer in the list) is not in it.
 */
export function useMemberStatuses(
  options: { enabled?: boolean; userIds?: number[] } = {},
): Map<number, MemberStatusEntry> {
  const { userIds, enabled } = options;
  const queryClient = useQueryClient();
  const statuses = useStatuses({ enabled });
  const members = useApiQuery(GetMemberStatuses, userIds ? { userIds } : {}, { staleTime: 60_000, enabled });
  useServerEvent('memberStatusChanged', (change) => applyMemberStatus(queryClient, change));
  // A deleted status clears its members; a reconnection may have missed changes; memberships change who is seen.
  useServerEvents(['statusesChanged', 'onChannelsChanged'], () => {
    void queryClient.invalidateQueries({ queryKey: callKey(GetMemberStatuses) });
  });
  const list = statuses.data?.res;
  const answer = members.data?.res;
  return useMemo(() => {
    const byId = new Map((list ?? []).map((status) => [status.id, status]));
    const map = new Map<number, MemberStatusEntry>();
    for (const entry of answer ?? []) {
      const status = entry.statusId === null ? undefined : byId.get(entry.statusId);
      if (status) map.set(entry.userId, { status, since: entry.since, setBy: entry.setBy });
    }
    return map;
  }, [list, answer]);
}

/** The signed-in member sets its own status (null: none). */
export function useSetMyStatus() {
  const queryClient = useQueryClient();
  return useApiMutation(SetMyStatus, { onSuccess: (answer) => applyMemberStatus(queryClient, answer.res) });
}

/** A dispatcher or an administrator sets a member's status (null: none). */
export function useSetUserStatus() {
  const queryClient = useQueryClient();
  return useApiMutation(SetUserStatus, { onSuccess: (answer) => applyMemberStatus(queryClient, answer.res) });
}
