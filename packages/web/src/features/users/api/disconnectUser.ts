/** 'Disconnect from all devices' (spec section 4): deleteUserTokens/ revokes every session of the user. */
import { DeleteUserTokens } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { refreshDirectory } from '../../../api/directory.ts';
import { useApiMutation } from '../../../api/queries.ts';

export function useDisconnectUser() {
  const queryClient = useQueryClient();
  return useApiMutation(DeleteUserTokens, { onSuccess: () => refreshDirectory(queryClient) });
}
