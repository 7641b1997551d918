/**
 * The gateways' calls of /settings (issue 51): each change reloads the list (and the calls now, which a change
 * of channels or a deletion may end) from the queries' own keys.
 */
import {
  CreateGateway,
  DeleteGateway,
  ListGatewayCalls,
  ListGateways,
  ResetGatewaySecret,
  UpdateGateway,
} from '@talkgroup/protocol';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { callKey, useApiMutation, useApiQuery } from '../../../api/queries.ts';

/** How often the calls now are read again while the section is shown (a call starts or ends from the gateway's side). */
const CALLS_REFRESH_MS = 5_000;

function reload(client: QueryClient) {
  return Promise.all([
    client.invalidateQueries({ queryKey: callKey(ListGateways) }),
    client.invalidateQueries({ queryKey: callKey(ListGatewayCalls) }),
  ]);
}

export function useGateways(enabled: boolean) {
  return useApiQuery(ListGateways, {}, { enabled });
}

export function useGatewayCalls(enabled: boolean) {
  return useApiQuery(ListGatewayCalls, {}, { enabled, refetchInterval: CALLS_REFRESH_MS });
}

export function useCreateGateway() {
  const client = useQueryClient();
  return useApiMutation(CreateGateway, { onSuccess: () => reload(client) });
}

export function useUpdateGateway() {
  const client = useQueryClient();
  return useApiMutation(UpdateGateway, { onSuccess: () => reload(client) });
}

export function useResetGatewaySecret() {
  return useApiMutation(ResetGatewaySecret);
}

export function useDeleteGateway() {
  const client = useQueryClient();
  return useApiMutation(DeleteGateway, { onSuccess: () => reload(client) });
}
