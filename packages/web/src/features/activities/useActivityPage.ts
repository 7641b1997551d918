/**
 * One page of the activity log, latest first (getAllActivities with start = pageSize × (page − 1), spec
 * section 9), kept live: a new activity (onActivity, pushed to administrators) or a deletion refreshes it.
 * While another page loads, the previous one stays on screen and `changingPage` is true.
 */
import { type BodyOf, GetAllActivities } from '@talkgroup/protocol';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { callKey, useApiQuery } from '../../api/queries.ts';
import { useServerEvents } from '../../api/serverEvents.ts';

/** `filter`: the optional fields of getAllActivities/ (activityFilter.ts callFilter). */
export function useActivityPage(page: number, pageSize: number, filter: Partial<BodyOf<typeof GetAllActivities>> = {}) {
  const queryClient = useQueryClient();
  const query = useApiQuery(
    GetAllActivities,
    { start: pageSize * (page - 1), limit: pageSize, ...filter },
    { placeholderData: keepPreviousData },
  );
  useServerEvents(['onActivity'], () => {
    void queryClient.invalidateQueries({ queryKey: callKey(GetAllActivities) });
  });
  const total = query.data?.res.totalRecords ?? 0;
  return {
    activities: query.data?.res.activities ?? [],
    total,
    pageCount: Math.max(1, Math.ceil(total / pageSize)),
    /** Nothing to show yet. */
    loading: query.isPending,
    /** Another page is on its way; the previous one is still shown. */
    changingPage: query.isPlaceholderData,
    error: query.error,
    retry: () => void query.refetch(),
  };
}
