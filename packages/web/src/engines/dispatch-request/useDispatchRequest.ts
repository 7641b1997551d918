/**
 * The member's own dispatch request on one channel (issue 49): read with listDispatchCalls when the page opens
 * and again after the socket's `resync` or a reconnection, kept live by `dispatchCallsChanged`; asked with
 * requestDispatchCall, withdrawn with cancelDispatchCall. A request that ends while the page shows it stays a few
 * seconds (or until dismissed) as `ended`, so the member reads how it ended before the button comes back.
 */
import {
  CancelDispatchCall,
  type DispatchRequest,
  ListDispatchCalls,
  OPEN_DISPATCH_STATES,
  RequestDispatchCall,
} from '@talkgroup/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api/client.ts';
import { useApiMutation } from '../../api/queries.ts';
import { useServerEvent, useSharedSocket } from '../../api/serverEvents.ts';
import { useSession } from '../../api/session.ts';
import { isEnded } from './requestSentence.ts';

/** How long the end of a request stays on screen before the button comes back. */
export const ENDED_SHOWN_MS = 8000;

/** A request as this page last heard of it, and when (this clock): the wait goes on counting from there. */
export interface KnownRequest {
  request: DispatchRequest;
  at: number;
}

const isOpen = (request: DispatchRequest) => (OPEN_DISPATCH_STATES as readonly string[]).includes(request.state);

export type DispatchRequestHandle = ReturnType<typeof useDispatchRequest>;

export function useDispatchRequest(channelId: number) {
  const userId = useSession()?.user?.id;
  const [known, setKnown] = useState<ReadonlyMap<number, KnownRequest>>(new Map());

  // Only this member's own requests: a dispatcher's or an administrator's list holds others' too. The newer news
  // of a request wins: a list is dated from when it was asked for, so a push that came in meanwhile stays.
  const merge = useCallback(
    (requests: DispatchRequest[], at: number) =>
      setKnown((previous) => {
        const next = new Map(previous);
        for (const request of requests) {
          if (request.requester.userId !== userId) continue;
          const old = next.get(request.requestId);
          if (!old || old.at <= at) next.set(request.requestId, { request, at });
        }
        return next;
      }),
    [userId],
  );

  const refresh = useCallback(async () => {
    const asked = Date.now();
    try {
      const { res } = await api(ListDispatchCalls, {});
      merge(res, asked);
    } catch {
      // The pushes still come; the next resync or reconnection reads the list again.
    }
  }, [merge]);

  useEffect(() => {
    if (userId !== undefined) void refresh();
  }, [refresh, userId]);
  useServerEvent('dispatchCallsChanged', (request) => merge([request], Date.now()));
  const { socket } = useSharedSocket();
  useEffect(() => {
    if (!socket) return;
    const again = () => void refresh();
    socket.on('resync', again);
    socket.io.on('reconnect', again);
    return () => {
      socket.off('resync', again);
      socket.io.off('reconnect', again);
    };
  }, [socket, refresh]);

  const open = openOn(known, channelId);
  const ended = useEndedNotice(known, open);
  useBuzzWhenTaken(open?.request ?? null);

  const ask = useApiMutation(RequestDispatchCall, { onSuccess: () => void refresh() });
  const cancel = useApiMutation(CancelDispatchCall, { onSuccess: ({ res }) => merge([res], Date.now()) });

  return { open, ended: ended.request, dismiss: ended.dismiss, ask, cancel };
}

/** The member's open request on this channel (one at most; the newest if the server ever kept two). */
function openOn(known: ReadonlyMap<number, KnownRequest>, channelId: number): KnownRequest | null {
  let found: KnownRequest | null = null;
  for (const entry of known.values()) {
    if (entry.request.channelId !== channelId || !isOpen(entry.request)) continue;
    if (!found || entry.request.requestId > found.request.requestId) found = entry;
  }
  return found;
}

/** The request that was open here and has just ended, for ENDED_SHOWN_MS or until dismissed. */
function useEndedNotice(known: ReadonlyMap<number, KnownRequest>, open: KnownRequest | null) {
  const lastOpen = useRef<number | null>(null);
  const [request, setRequest] = useState<DispatchRequest | null>(null);
  const openId = open?.request.requestId ?? null;
  useEffect(() => {
    if (openId !== null) {
      lastOpen.current = openId;
      setRequest(null);
      return;
    }
    if (lastOpen.current === null) return;
    const last = known.get(lastOpen.current)?.request;
    if (last && isEnded(last.state)) {
      lastOpen.current = null;
      setRequest(last);
    }
  }, [openId, known]);
  useEffect(() => {
    if (!request) return;
    const timer = setTimeout(() => setRequest(null), ENDED_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [request]);
  const dismiss = useCallback(() => setRequest(null), []);
  return { request, dismiss };
}

/**
 * A phone in a pocket buzzes when a dispatcher takes the request (or a transfer lands): the member looks at the
 * screen, or listens to the channel. A private call rings by itself.
 */
function useBuzzWhenTaken(request: DispatchRequest | null) {
  const last = useRef<{ id: number; state: string } | null>(null);
  useEffect(() => {
    const before = last.current;
    last.current = request ? { id: request.requestId, state: request.state } : null;
    if (request?.state !== 'taken' || !before || before.id !== request.requestId) return;
    if (before.state !== 'taken') navigator.vibrate?.([150, 100, 150]);
  }, [request]);
}
