/** Edit User Profile (spec section 8): updateUserData, then updateChannelUsers with the chosen channels. */
import { type BodyOf, UpdateChannelUsers, UpdateUserData } from '@talkgroup/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { refreshDirectory } from '../../../api/directory.ts';

export interface UpdateUserInput {
  user: BodyOf<typeof UpdateUserData>;
  channelIds: number[];
}

export async function updateUser({ user, channelIds }: UpdateUserInput): Promise<void> {
  await api(UpdateUserData, user);
  await api(UpdateChannelUsers, { userId: user.id, channelList: channelIds });
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateUser, onSuccess: () => refreshDirectory(queryClient) });
}
