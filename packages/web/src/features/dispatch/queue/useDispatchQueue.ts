/**
 * The call queue's data on the dispatch console (issue 49): `listDispatchCalls` when the panel mounts and after
 * every (re)connection or `resync`, then each `dispatchCallsChanged` replaces its request. The page tells the
 * server that the console is open here (`dispatch_console`), so that reminders sound here rather than reach
 * this dispatcher as a Web Push. A new request chimes; one recalled by the server calls louder.
 */
import {
  AnswerDispatchTransfer,
  CloseDispatchCall,
  type DispatchAnswer,
  type DispatchRequest,
  ListDispatchCalls,
  ReturnDispatchCall,
  TakeDispatchCall,
  TransferDispatchCall,
} from '@talkgroup/protocol';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../../../api/client.ts';
import { useApiMutation } from '../../../api/queries.ts';
import { useServerEvent } from '../../../api/serverEvents.ts';
import type { TalkgroupSocket } from '../../../api/socket.ts';
import { newsOf, type QueueEntry, queueOrder, upsertEntry } from './queueOrder.ts';
import { newRequestChime, reminderCall } from './queueSounds.ts';

export function useDispatchQueue(socket: TalkgroupSocket | null) {
  const [entries, setEntries] = useState<QueueEntry[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [loadError, setLoadError] = useState<unknown>(null);
  const latest = useRef(entries);
  latest.current = entries;
  /** Bumped by every read: only the newest read's answer is used. */
  const readSeq = useRef(0);
  /** The events received while a read is on its way: they may be newer than its answer, so they win. */
  const duringRead = useRef<QueueEntry[] | null>(null);

  const reload = useCallback(async () => {
    const seq = ++readSeq.current;
    duringRead.current = [];
    try {
      const { res } = await api(ListDispatchCalls, {});
      if (seq !== readSeq.current) return;
      const at = Date.now();
      const read = res.map((request) => ({ request, receivedAt: at }));
      setEntries((duringRead.current ?? []).reduce(upsertEntry, read));
      duringRead.current = null;
      setLoaded(true);
      setLoadError(null);
    } catch (error) {
      if (seq !== readSeq.current) return;
      duringRead.current = null;
      setLoadError(error);
    }
  }, []);

  const apply = useCallback((request: DispatchRequest) => {
    const entry = { request, receivedAt: Date.now() };
    duringRead.current?.push(entry);
    setEntries((current) => upsertEntry(current, entry));
  }, []);

  useServerEvent('dispatchCallsChanged', (request) => {
    const previous = latest.current.find((entry) => entry.request.requestId === request.requestId)?.request;
    const news = newsOf(previous, request);
    if (news === 'reminded') reminderCall();
    else if (news === 'new') newRequestChime();
    apply(request);
  });

  // Open here, read the queue, and again after every reconnection or resync (events may have been missed).
  useEffect(() => {
    if (!socket) return;
    const opened = () => {
      socket.emit('dispatch_console', { open: true });
      void reload();
    };
    const resync = () => void reload();
    if (socket.connected) opened();
    else void reload();
    socket.on('connect', opened);
    socket.on('resync', resync);
    return () => {
      socket.off('connect', opened);
      socket.off('resync', resync);
      if (socket.connected) socket.emit('dispatch_console', { open: false });
    };
  }, [socket, reload]);

  const onAnswer = { onSuccess: ({ res }: { res: DispatchRequest }) => apply(res) };
  const take = useApiMutation(TakeDispatchCall, onAnswer);
  const sendBack = useApiMutation(ReturnDispatchCall, onAnswer);
  const transfer = useApiMutation(TransferDispatchCall, onAnswer);
  const close = useApiMutation(CloseDispatchCall, onAnswer);
  const answerTransfer = useApiMutation(AnswerDispatchTransfer, onAnswer);

  const { open, ended } = useMemo(() => queueOrder(entries), [entries]);
  return { open, ended, loaded, loadError, take, sendBack, transfer, close, answerTransfer };
}

export type DispatchQueue = ReturnType<typeof useDispatchQueue>;
export type { DispatchAnswer };
