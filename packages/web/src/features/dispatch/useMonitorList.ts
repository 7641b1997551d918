/**
 * The desk's monitor list, saved on the server (getMonitorList / setMonitorList) so that it follows the user to
 * another browser: the tiles in order, their volumes and mutes, and the unselected level. A change shows at
 * once and is saved a moment later (a volume slider sends one save when it rests, not one per step).
 */
import { GetMonitorList, type MonitoredChannel, SetMonitorList } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
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

  const flush = useCallback(() => {
    clearTimeout(timer.current);
    const list = pending.current;
    pending.current = null;
    if (list) save.mutate(list);
  }, [save.mutate]);

  /** Shows `next` at once; saves it now, or once the changes rest (`later`). */
  const update = useCallback(
    (next: MonitorList, { later = false }: { later?: boolean } = {}) => {
      client.setQueryData(key, { success: true, res: next.channels, unselectedVolume: next.unselectedVolume });
      pending.current = next;
      clearTimeout(timer.current);
      if (later) timer.current = setTimeout(flush, SAVE_AFTER_MS);
      else flush();
    },
    [client, key, flush],
  );

  // Leaving the page saves what waited.
  useEffect(() => () => flush(), [flush]);

  const list: MonitorList | undefined = query.data
    ? { channels: query.data.res, unselectedVolume: query.data.unselectedVolume }
    : undefined;
  return { list, query, update, saveError: save.error };
}
