/** The users list's filters by status (issue 49) and by role (issue 58). */
import { GetUsersPage } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { callKey } from '../../api/queries.ts';
import { useServerEvent } from '../../api/serverEvents.ts';
import type { MemberStatusEntry } from '../../api/statuses.ts';
import type { ServerTable } from '../../components/table/useServerPaging.ts';

/** Every user, those without a status, or those with this status. */
export type StatusFilter = 'all' | 'none' | number;

export function matchesStatus(filter: StatusFilter, entry: MemberStatusEntry | undefined): boolean {
  if (filter === 'all') return true;
  if (filter === 'none') return entry === undefined;
  return entry?.status.id === filter;
}

/**
 * A list paged on the server and filtered by status: another filter starts from the first page, and a member's
 * new status reads the page again (it may enter or leave it).
 */
export function usePagedStatusFilter(server: ServerTable | undefined, filter: StatusFilter): void {
  const queryClient = useQueryClient();
  const setPagination = server?.setPagination;
  const previous = useRef(filter);
  useEffect(() => {
    if (previous.current === filter) return;
    previous.current = filter;
    setPagination?.((pagination) => ({ ...pagination, pageIndex: 0 }));
  }, [filter, setPagination]);
  useServerEvent('memberStatusChanged', () => {
    if (server && filter !== 'all') void queryClient.invalidateQueries({ queryKey: callKey(GetUsersPage) });
  });
}

/** A list paged on the server and filtered by role (issue 58): another role starts from the first page. */
export function usePagedRoleFilter(server: ServerTable | undefined, filter: string): void {
  const setPagination = server?.setPagination;
  const previous = useRef(filter);
  useEffect(() => {
    if (previous.current === filter) return;
    previous.current = filter;
    setPagination?.((pagination) => ({ ...pagination, pageIndex: 0 }));
  }, [filter, setPagination]);
}
