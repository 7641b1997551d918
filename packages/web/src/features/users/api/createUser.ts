/**
 * Add User (spec section 8): signUpUser under the administrator's token, then addUserToChannel for each chosen
 * channel. Once the user exists the creation counts as a success, even if a channel fails: the answer says so.
 */
import { AddUserToChannel, type BodyOf, SignUpUser, type User } from '@talkgroup/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { refreshDirectory } from '../../../api/directory.ts';

export interface CreateUserInput {
  user: BodyOf<typeof SignUpUser>;
  channelIds: number[];
}

export interface CreatedUser {
  user: User;
  /** At least one addUserToChannel failed. */
  channelsFailed: boolean;
}

export async function createUser({ user, channelIds }: CreateUserInput): Promise<CreatedUser> {
  const created = (await api(SignUpUser, user)).user;
  const added = await Promise.allSettled(
    channelIds.map((channelId) => api(AddUserToChannel, { userId: created.id, channelId })),
  );
  return { user: created, channelsFailed: added.some((result) => result.status === 'rejected') };
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createUser, onSuccess: () => refreshDirectory(queryClient) });
}
