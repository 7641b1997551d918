/** Delete a user (spec section 8): deleteUser, then every list that showed them reloads. */
import { DeleteUser } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { refreshDirectory } from '../../../api/directory.ts';
import { useApiMutation } from '../../../api/queries.ts';

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useApiMutation(DeleteUser, { onSuccess: () => refreshDirectory(queryClient) });
}
