/**
 * Who works alone in the desk's channels (issue 60; all of them for an administrator): read once (getLoneWorkers),
 * then kept live from what the server pushes (issue 70: `loneWorkerChanged`, each start, check, answer, alert and
 * stop), read again after a lost link. No polling: the console shows a change within a second or two.
 */
import { GetLoneWorkers, type LoneWorker, type LoneWorkerChange } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { callKey, useApiQuery } from '../../../api/queries.ts';
import { useServerEvent, useServerEvents } from '../../../api/serverEvents.ts';
import { useMay } from '../../../api/session.ts';

type LoneWorkersPage = { success: boolean; res: LoneWorker[] };

/** A pushed change written into the list read: a worker replaced, added, or gone (null). */
export function withChange(page: LoneWorkersPage | undefined, change: LoneWorkerChange): LoneWorkersPage | undefined {
  if (!page) return page;
  const others = page.res.filter((worker) => worker.userId !== change.userId);
  return { ...page, res: change.worker ? [...others, change.worker] : others };
}

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
