/**
 * The users of a console table (the users list, a channel's member picker, the room's search): useUsers and
 * useUsersPaged from api/directory.ts, with useServerPaging's state past USERS_PAGED_ABOVE users (issue 18).
 */
import { type BodyOf, GetUserIds, GetUsersPage, type Role, type User, type UserSortField } from '@talkgroup/protocol';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { api } from '../../api/client.ts';
import { useUsers, useUsersPaged } from '../../api/directory.ts';
import { callKey, useApiQuery } from '../../api/queries.ts';
import type { PageSizes } from './useConsoleTable.ts';
import { type ServerPagingState, type ServerTable, useServerPaging } from './useServerPaging.ts';

/**
 * The users of a table. Up to USERS_PAGED_ABOVE users: the whole list (getAllUsers), searched, sorted and
 * paged in the browser. Past it: a page at a time from the server (getUsersPage) and `server`, the paging that
 * ConsoleTable takes; `sortFields` says which column sorts by which field of the server (the other columns
 * cannot be sorted then).
 */
/** How long a fetched page is shown without asking again (pushes and refreshDirectory invalidate it anyway). */
const PAGE_FRESH_MS = 10_000;

export function useUserTable(
  kind: 'list' | 'selection',
  pageSizes: PageSizes,
  sortFields: Partial<Record<string, UserSortField>>,
  {
    enabled = true,
    statusId,
    role,
  }: {
    enabled?: boolean;
    /** Past the threshold, only the users with this status, or without one (null): the server filters (issue 49). */
    statusId?: number | null;
    /** Past the threshold, only the users of this role (issue 58). */
    role?: Role;
  } = {},
): {
  users: User[];
  query: { isPending: boolean; isError: boolean; refetch: () => unknown };
  server?: ServerTable;
} {
  const paged = useUsersPaged({ enabled });
  const whole = useUsers({ enabled: enabled && paged === false });
  const queryClient = useQueryClient();
  const bodyOf = useCallback(
    ({
      query,
      pagination: { pageIndex, pageSize },
      sorting: [sort],
    }: ServerPagingState): BodyOf<typeof GetUsersPage> => ({
      start: pageIndex * pageSize,
      limit: pageSize,
      search: query.trim() || undefined,
      sort: (sort && sortFields[sort.id]) || 'createdAt',
      direction: sort && !sort.desc ? 'asc' : 'desc',
      ...(statusId !== undefined ? { statusId } : {}),
      ...(role !== undefined ? { role } : {}),
    }),
    [sortFields, statusId, role],
  );
  const paging = useServerPaging(kind, pageSizes, (next) =>
    queryClient.fetchQuery({
      queryKey: callKey(GetUsersPage, bodyOf(next)),
      queryFn: ({ signal }) => api(GetUsersPage, bodyOf(next), { signal }),
      staleTime: PAGE_FRESH_MS,
    }),
  );
  const search = paging.query.trim() || undefined;
  const page = useApiQuery(GetUsersPage, bodyOf(paging), {
    // Asked at once, beside the count: past the threshold the first rows need no second round trip.
    enabled: enabled && paged !== false,
    placeholderData: keepPreviousData,
    // A page fetched for a change (useServerPaging's prepare) is shown as it is, not asked again.
    staleTime: PAGE_FRESH_MS,
  });
  const sortable = useMemo(() => new Set(Object.keys(sortFields)), [sortFields]);
  if (paged !== true) {
    return {
      users: whole.data?.res ?? [],
      query: { isPending: paged === undefined || whole.isPending, isError: whole.isError, refetch: whole.refetch },
    };
  }
  return {
    users: page.data?.res.users ?? [],
    query: { isPending: page.isPending, isError: page.isError, refetch: page.refetch },
    server: {
      ...paging,
      rowCount: page.data?.res.totalRecords ?? 0,
      allIds: () =>
        api(GetUserIds, {
          search,
          ...(statusId !== undefined ? { statusId } : {}),
          ...(role !== undefined ? { role } : {}),
        }).then((answer) => answer.res),
      sortable,
    },
  };
}
