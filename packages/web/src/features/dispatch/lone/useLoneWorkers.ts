/**
 * Who works alone in the desk's channels (issue 60; all of them for an administrator): read once (getLoneWorkers),
 * then kept live from what the server pushes (issue 70: `loneWorkerChanged`, each start, check, answer, alert and
 * stop), read again after a lost link. No polling: the console shows a change within a second or two.
 */
import { GetLoneWorkers } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { callKey, useApiQuery } from '../../../api/queries.ts';
import { useServerEvent, useServerEvents } from '../../../api/serverEvents.ts';
import { useMay } from '../../../api/session.ts';
import { type LoneWorkersPage, withChange } from './loneWorkerList.ts';

/** The list, for whoever takes alerts somewhere (getLoneWorkers asks for channel.alerts). */
export function useLoneWorkers() {
  const enabled = useMay().somewhere('channel.alerts');
  const workers = useApiQuery(GetLoneWorkers, {}, { enabled });
  const byUser = useMemo(
    () => new Map((workers.data?.res ?? []).map((worker) => [worker.userId, worker])),
    [workers.data],
  );
  return { enabled, workers, byUser };
}

/** Once per page: the pushes written into the list, and the list read again after a lost link. */
export function useLoneWorkerUpdates(): void {
  const client = useQueryClient();
  const key = callKey(GetLoneWorkers, {});
  useServerEvent('loneWorkerChanged', (change) =>
    client.setQueryData<LoneWorkersPage>(key, (page) => withChange(page, change)),
  );
  // A lost link (or a server whose link to the others came back) may have missed changes; so may the first one.
  useServerEvents(['loneWorkerAlert'], () => void client.invalidateQueries({ queryKey: key }), 1000, {
    firstConnection: true,
  });
}
