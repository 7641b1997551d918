/**
 * The fences a map shows (getGeofences), kept live from the console's socket (geofencesChanged), and one
 * mutation hook per call that refreshes them on success.
 */
import { CreateGeofence, DeleteGeofence, GetGeofences, UpdateGeofence } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { callKey, useApiMutation, useApiQuery } from '../../../api/queries.ts';
import { useServerEvent } from '../../../api/serverEvents.ts';

/** The fences that watch a channel's members (its own, and those of everyone for an administrator). */
export function useGeofences(channelId: number | undefined, enabled = true) {
  const client = useQueryClient();
  const query = useApiQuery(GetGeofences, channelId === undefined ? {} : { channelId }, { enabled });
  useServerEvent('geofencesChanged', () => {
    void client.invalidateQueries({ queryKey: callKey(GetGeofences) });
  });
  return query;
}

function useRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: callKey(GetGeofences) });
}

export function useCreateGeofence() {
  const refresh = useRefresh();
  return useApiMutation(CreateGeofence, { onSuccess: refresh });
}

export function useUpdateGeofence() {
  const refresh = useRefresh();
  return useApiMutation(UpdateGeofence, { onSuccess: refresh });
}

export function useDeleteGeofence() {
  const refresh = useRefresh();
  return useApiMutation(DeleteGeofence, { onSuccess: refresh });
}
