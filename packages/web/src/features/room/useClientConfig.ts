/** The server's ICE servers and map tile sources (getClientConfig); fetched once per session. */
import { type ClientConfig, GetClientConfig } from '@talkgroup/protocol';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { callKey } from '../../api/queries.ts';

export function useClientConfig(token?: string) {
  return useQuery<ClientConfig>({
    queryKey: [...callKey(GetClientConfig), token ? 'link' : 'session'],
    queryFn: async ({ signal }) => (await api(GetClientConfig, {}, { signal, token })).res,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
