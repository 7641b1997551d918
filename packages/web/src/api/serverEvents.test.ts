/**
 * The console's shared socket: reference counted by the hooks that listen to it. The hooks run here without
 * a DOM: React's useEffect runs the effect at once and keeps its clean-up (what a mount and an unmount do).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const harness = vi.hoisted(() => {
  type Handler = (...args: unknown[]) => void;
  const created: Array<{
    handlers: Map<string, Set<Handler>>;
    disconnect: ReturnType<typeof vi.fn>;
    on(event: string, handler: Handler): void;
    off(event: string, handler: Handler): void;
    io: { on(event: string, handler: Handler): void; off(event: string, handler: Handler): void };
  }> = [];
  const cleanups: Array<() => void> = [];
  function fakeSocket() {
    const handlers = new Map<string, Set<Handler>>();
    const socket = {
      handlers,
      disconnect: vi.fn(),
      on(event: string, handler: Handler) {
        if (!handlers.has(event)) handlers.set(event, new Set());
        handlers.get(event)?.add(handler);
      },
      off(event: string, handler: Handler) {
        handlers.get(event)?.delete(handler);
      },
      io: { on() {}, off() {} },
    };
    created.push(socket);
    return socket;
  }
  return { created, cleanups, fakeSocket };
});

vi.mock('react', () => ({
  useRef: <T>(current: T) => ({ current }),
  useEffect: (effect: () => undefined | (() => void)) => {
    const cleanup = effect();
    if (cleanup) harness.cleanups.push(cleanup);
  },
}));
vi.mock('./socket.ts', () => ({ createSocket: () => harness.fakeSocket() }));

type ServerEvents = typeof import('./serverEvents.ts');
let events: ServerEvents;

/** Mounts a component that listens to `event`; returns its unmount. */
function listen(event: 'onChannelsChanged' | 'onUsersChanged', listener: () => void = () => {}): () => void {
  const before = harness.cleanups.length;
  // Called as the component would, outside React (the mock above runs the effect).
  const subscribe: ServerEvents['useServerEvent'] = events.useServerEvent;
  subscribe(event, listener as never);
  const [unmount] = harness.cleanups.splice(before);
  return unmount;
}

function emit(event: string) {
  for (const socket of harness.created) for (const handler of socket.handlers.get(event) ?? []) handler();
}

beforeEach(async () => {
  vi.useFakeTimers();
  vi.resetModules();
  harness.created.length = 0;
  harness.cleanups.length = 0;
  events = await import('./serverEvents.ts');
});

afterEach(() => {
  vi.useRealTimers();
});

describe('shared socket reference counting', () => {
  it('opens one socket for every listener of the tab', () => {
    listen('onChannelsChanged');
    listen('onUsersChanged');
    listen('onChannelsChanged');
    expect(harness.created).toHaveLength(1);
  });

  it('keeps the socket open while one listener remains', () => {
    const first = listen('onChannelsChanged');
    listen('onUsersChanged');
    first();
    vi.advanceTimersByTime(60_000);
    expect(harness.created[0].disconnect).not.toHaveBeenCalled();
  });

  it('closes the socket a moment after the last listener leaves', () => {
    const first = listen('onChannelsChanged');
    const second = listen('onUsersChanged');
    first();
    second();
    vi.advanceTimersByTime(1_999);
    expect(harness.created[0].disconnect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(harness.created[0].disconnect).toHaveBeenCalledTimes(1);
  });

  it('reuses the socket when a listener comes back within that moment (moving between two pages)', () => {
    listen('onChannelsChanged')();
    vi.advanceTimersByTime(1_000);
    listen('onUsersChanged');
    vi.advanceTimersByTime(60_000);
    expect(harness.created).toHaveLength(1);
    expect(harness.created[0].disconnect).not.toHaveBeenCalled();
  });

  it('opens a new socket for a listener that comes after the socket closed', () => {
    listen('onChannelsChanged')();
    vi.advanceTimersByTime(2_000);
    listen('onChannelsChanged');
    expect(harness.created).toHaveLength(2);
    expect(harness.created[0].disconnect).toHaveBeenCalledTimes(1);
    expect(harness.created[1].disconnect).not.toHaveBeenCalled();
  });

  it('delivers events to the listeners still mounted, and no longer to one that left', () => {
    const heard: string[] = [];
    const leaving = listen('onChannelsChanged', () => heard.push('leaving'));
    listen('onChannelsChanged', () => heard.push('staying'));
    emit('onChannelsChanged');
    leaving();
    emit('onChannelsChanged');
    expect(heard).toEqual(['leaving', 'staying', 'staying']);
  });
});
