/**
 * The desk's monitor list, saved on the server (getMonitorList / setMonitorList) so that it follows the user to
 * another browser: the tiles in order, their volumes and mutes, and the unselected level. A change shows at
 * once and is saved a moment later (a volume slider sends one save when it rests, not one per step). Until the
 * server has it, what the desk changed stays on screen: a read of the list that was on its way (the page's
 * first, or one asked again meanwhile) does not undo it.
 */
import { GetMonitorList, type MonitoredChannel, SetMonitorList } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { callKey, useApiMutation, useApiQuery } from '../../api/queries.ts';

export interface MonitorList {
  channels: MonitoredChannel[];
  unselectedVolume: number;
}

const SAVE_AFTER_MS = 400;

export function useMonitorList() {
  const client = useQueryClient();
  const key = callKey(GetMonitorList, {});
  const query = useApiQuery(GetMonitorList, {});
  const save = useApiMutation(SetMonitorList);
  const pending = useRef<MonitorList | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** The desk's latest change, shown until the server has saved it. */
  const [unsaved, setUnsaved] = useState<MonitorList | null>(null);
  const latest = useRef<MonitorList | null>(null);

  /** The saves on their way, one after the other. */
  const saving = useRef<Promise<unknown>>(Promise.resolve());

  const flush = useCallback(() => {
    clearTimeout(timer.current);
    const list = pending.current;
    pending.current = null;
    if (!list) return;
    const settled = (saved: boolean) => {
      // A later change is on its way: it settles the list itself.
      if (latest.current !== list) return;
      latest.current = null;
      if (saved)
        client.setQueryData(key, { success: true, res: list.channels, unselectedVolume: list.unselectedVolume });
      else void client.invalidateQueries({ queryKey: key });
      setUnsaved(null);
    };
    // One save at a time, in the order of the changes: two on their way at once may reach the server in either
    // order, and the older would stay (a slider that showed 80 saved as 90, seen on a loaded CI). A promise, not
    // mutate's callbacks: those do not run once the page is gone, and what waited would never be sent.
    saving.current = saving.current.then(() =>
      save.mutateAsync(list).then(
        () => settled(true),
        () => settled(false),
      ),
    );
  }, [save.mutateAsync, client, key]);

  /** Shows `next` at once; saves it now, or once the changes rest (`later`). */
  const update = useCallback(
    (next: MonitorList, { later = false }: { later?: boolean } = {}) => {
      void client.cancelQueries({ queryKey: key });
      client.setQueryData(key, { success: true, res: next.channels, unselectedVolume: next.unselectedVolume });
      latest.current = next;
      setUnsaved(next);
      pending.current = next;
      clearTimeout(timer.current);
      if (later) timer.current = setTimeout(flush, SAVE_AFTER_MS);
      else flush();
    },
    [client, key, flush],
  );

  // Leaving the page saves what waited.
  useEffect(() => () => flush(), [flush]);

  const list: MonitorList | undefined =
    unsaved ?? (query.data ? { channels: query.data.res, unselectedVolume: query.data.unselectedVolume } : undefined);
  return { list, query, update, saveError: save.error };
}
