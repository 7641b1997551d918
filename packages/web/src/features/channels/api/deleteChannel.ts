/** Delete a channel (spec section 8): deleteChannel, then every list that showed it reloads. */
import { DeleteChannel } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { refreshDirectory } from '../../../api/directory.ts';
import { useApiMutation } from '../../../api/queries.ts';

export function useDeleteChannel() {
  const queryClient = useQueryClient();
  return useApiMutation(DeleteChannel, { onSuccess: () => refreshDirectory(queryClient) });
}
