/**
 * The server's ICE servers and map tile sources (getClientConfig): fetched once per session, and again before
 * the TURN credentials in it expire (iceServersExpireAt), so that a room open for days keeps its relay.
 */
import { type ClientConfig, GetClientConfig } from '@talkgroup/protocol';
import { useQuery } from '@tanstack/react-query';
import { api } from './client.ts';
import { callKey } from './queries.ts';

/** Renewed when this share of the credentials' lifetime is left (1 h by default: 9 minutes before). */
const RENEW_AT_LEFT = 0.15;
const RENEW_AT_LEAST_MS = 60_000;

/** How long until the configuration is fetched again (false: nothing in it expires). */
export function renewalDelay(
  config: Pick<ClientConfig, 'iceServersExpireAt'> | undefined,
  now: number,
  fetchedAt: number,
) {
  const expiresAt = config?.iceServersExpireAt ? Date.parse(config.iceServersExpireAt) : Number.NaN;
  if (!Number.isFinite(expiresAt)) return false;
  const lifetime = Math.max(0, expiresAt - fetchedAt);
  const renewAt = expiresAt - lifetime * RENEW_AT_LEFT;
  return Math.max(RENEW_AT_LEAST_MS, renewAt - now);
}

export function useClientConfig(token?: string) {
  return useQuery<ClientConfig>({
    queryKey: [...callKey(GetClientConfig), token ? 'link' : 'session'],
    queryFn: async ({ signal }) => (await api(GetClientConfig, {}, { signal, token })).res,
    staleTime: Number.POSITIVE_INFINITY,
    refetchInterval: (query) => renewalDelay(query.state.data, Date.now(), query.state.dataUpdatedAt),
    refetchIntervalInBackground: true,
  });
}
