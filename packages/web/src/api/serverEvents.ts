/**
 * Live refresh for the console's lists: `useServerEvent('onChannelsChanged', () => ...)`.
 * Every subscriber of the tab shares one Socket.IO connection (token in the handshake query, spec section 7),
 * opened by the first subscriber and closed a moment after the last one leaves (so that moving between two
 * pages does not reconnect). A room page uses it too (useSharedSocket): one connection for the console's pushes
 * and every channel the page is in.
 */
import type { ServerToClientEvents } from '@talkgroup/protocol';
import { useEffect, useRef, useState } from 'react';
import { createSocket, type TalkgroupSocket } from './socket.ts';

type EventName = keyof ServerToClientEvents;

let shared: TalkgroupSocket | null = null;
let subscribers = 0;
let closeTimer: ReturnType<typeof setTimeout> | undefined;

function acquire(): TalkgroupSocket {
  clearTimeout(closeTimer);
  subscribers++;
  shared ??= createSocket();
  return shared;
}

function release(): void {
  subscribers--;
  if (subscribers > 0) return;
  closeTimer = setTimeout(() => {
    if (subscribers === 0) {
      shared?.disconnect();
      shared = null;
    }
  }, 2000);
}

export function useServerEvent<E extends EventName>(event: E, listener: ServerToClientEvents[E]): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    const socket = acquire();
    const relay = ((...args: unknown[]) => (latest.current as (...a: unknown[]) => void)(...args)) as never;
    socket.on(event, relay);
    return () => {
      socket.off(event, relay);
      release();
    };
  }, [event]);
}

/** The tab's one socket, held while the calling component is shown, and whether it is connected now. */
export function useSharedSocket(enabled = true): { socket: TalkgroupSocket | null; connected: boolean } {
  const [socket, setSocket] = useState<TalkgroupSocket | null>(null);
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    const held = acquire();
    const up = () => setConnected(true);
    const down = () => setConnected(false);
    held.on('connect', up);
    held.on('disconnect', down);
    setSocket(held);
    setConnected(held.connected);
    return () => {
      held.off('connect', up);
      held.off('disconnect', down);
      setSocket(null);
      setConnected(false);
      release();
    };
  }, [enabled]);
  return { socket, connected };
}

/** Calls `refresh` once for a burst of these events (a bulk import or many joins send many of them). */
export function useServerEvents(
  events: EventName[],
  refresh: () => void,
  delayMs = 300,
  { firstConnection = false }: { firstConnection?: boolean } = {},
): void {
  const latest = useRef(refresh);
  latest.current = refresh;
  const key = events.join('|');
  useEffect(() => {
    const socket = acquire();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // At most one refresh per delay, and always one after the last event.
    const schedule = () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        latest.current();
      }, delayMs);
    };
    const names = key.split('|') as EventName[];
    for (const name of names) socket.on(name, schedule as never);
    // A reconnection may have missed events, and so may a server whose link to the others came back.
    socket.io.on('reconnect', schedule);
    socket.on('resync', schedule);
    // `firstConnection`: so may the first connection, for a list nothing may miss (an SOS sent while a console
    // loads came with no push). Once, for a socket not connected yet. Not for every list: a list the page edits
    // (a status, a volume) would be overwritten by an answer read before the edit was saved.
    const firstConnect = () => {
      socket.off('connect', firstConnect);
      schedule();
    };
    if (firstConnection && !socket.connected) socket.on('connect', firstConnect);
    return () => {
      clearTimeout(timer);
      for (const name of names) socket.off(name, schedule as never);
      socket.off('connect', firstConnect);
      socket.io.off('reconnect', schedule);
      socket.off('resync', schedule);
      release();
    };
  }, [key, delayMs, firstConnection]);
}

/**
 * True while the console's live connection is lost and coming back (the shell's banner). Subscribing
 * keeps the shared socket open: a console is live as long as it is shown.
 */
export function useServerLinkLost(): boolean {
  const [lost, setLost] = useState(false);
  useEffect(() => {
    const socket = acquire();
    const down = () => setLost(socket.active);
    const up = () => setLost(false);
    socket.on('disconnect', down);
    socket.on('connect', up);
    return () => {
      socket.off('disconnect', down);
      socket.off('connect', up);
      release();
    };
  }, []);
  return lost;
}

/**
 * Follows who talks in these channels from outside their rooms (watch_channels, sent again after each
 * reconnection); the talkers arrive as onMicStateChanged (listen with useServerEvent).
 */
export function useWatchChannels(channelIds: number[]): void {
  const key = channelIds.join(',');
  useEffect(() => {
    const socket = acquire();
    const ids = key ? key.split(',').map(Number) : [];
    const watch = () => socket.emit('watch_channels', { channelIds: ids });
    if (socket.connected) watch();
    socket.on('connect', watch);
    return () => {
      socket.off('connect', watch);
      if (socket.connected) socket.emit('watch_channels', { channelIds: [] });
      release();
    };
  }, [key]);
}
