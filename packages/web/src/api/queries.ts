/**
 * TanStack Query over the typed client. A query's key starts with the call's path, so a feature refreshes
 * every variant of a call with `queryClient.invalidateQueries({ queryKey: callKey(GetAllUsers) })`.
 */
import type { BodyOf, ResponseOf } from '@talkgroup/protocol';
import {
  type QueryKey,
  type UseMutationOptions,
  type UseQueryOptions,
  useMutation,
  useQuery,
} from '@tanstack/react-query';
import { type AnyCall, type ApiError, api } from './client.ts';

export function callKey<C extends AnyCall>(call: C, body?: BodyOf<C>): QueryKey {
  return body === undefined ? [call.path] : [call.path, body];
}

export function useApiQuery<C extends AnyCall>(
  call: C,
  body: BodyOf<C>,
  options: Omit<UseQueryOptions<ResponseOf<C>, ApiError>, 'queryKey' | 'queryFn'> = {},
) {
  return useQuery<ResponseOf<C>, ApiError>({
    queryKey: callKey(call, body),
    queryFn: ({ signal }) => api(call, body, { signal }),
    ...options,
  });
}

export function useApiMutation<C extends AnyCall, Context = unknown>(
  call: C,
  options: Omit<UseMutationOptions<ResponseOf<C>, ApiError, BodyOf<C>, Context>, 'mutationFn'> = {},
) {
  return useMutation<ResponseOf<C>, ApiError, BodyOf<C>, Context>({
    mutationFn: (body) => api(call, body),
    ...options,
  });
}
