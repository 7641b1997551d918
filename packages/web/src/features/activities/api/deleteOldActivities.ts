/**
 * The Activities page's Delete (spec section 9): deleteOldActivities for a period, then every page of the log
 * reloads. A `success: false` answer is a refusal, like an error status.
 */
import { type ActivityTimeFrame, DeleteOldActivities, GetAllActivities } from '@talkgroup/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../../api/client.ts';
import { callKey } from '../../../api/queries.ts';

export async function deleteOldActivities(timeFrame: ActivityTimeFrame) {
  const answer = await api(DeleteOldActivities, { timeFrame });
  if (!answer.success) throw new ApiError(DeleteOldActivities.path, 200, answer.result);
  return answer;
}

export function useDeleteOldActivities() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOldActivities,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: callKey(GetAllActivities) }),
  });
}
