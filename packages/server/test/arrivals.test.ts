/**
 * Which sockets arrived after a presence change (realtime/arrivals.ts): those are not told of it, since what
 * they read as they arrived already had it.
 */
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { arrivals } from '../src/realtime/arrivals.ts';

describe('arrivals', () => {
  const rooms = new Map<string, Set<string>>();
  const tracker = arrivals((socketId) => rooms.get(socketId));
  const place = (socketId: string, ...names: string[]) => rooms.set(socketId, new Set([socketId, ...names]));

  it('names the sockets that joined every room that hears of a change after it, and no other', () => {
    place('before', 'channel:red');
    tracker.connected('before');
    tracker.joined('before', 'channel:red');
    const change = performance.now();
    place('after', 'channel:red');
    tracker.connected('after');
    tracker.joined('after', 'channel:red');
    // An administrator's console, connected before the change, that joins the room afterwards: it heard of the
    // change as a console.
    place('console', 'admins', 'channel:red');
    tracker.joined('console', 'channel:red');
    // Joined after the change, but a room that does not hear of it.
    place('elsewhere', 'channel:blue');
    tracker.connected('elsewhere');
    tracker.joined('elsewhere', 'channel:blue');

    expect(tracker.cameAfter(['admins', 'channel:red'], change).sort()).toEqual(['after']);
  });

  it('counts a socket that connected after the change as late for the consoles’ rooms too', () => {
    const change = performance.now();
    place('late-console', 'admins');
    tracker.connected('late-console');
    expect(tracker.cameAfter(['admins'], change)).toEqual(['late-console']);
  });

  it('keeps a socket that left the room out of it', () => {
    const change = performance.now();
    place('gone', 'channel:green');
    tracker.connected('gone');
    tracker.joined('gone', 'channel:green');
    rooms.delete('gone');
    expect(tracker.cameAfter(['channel:green'], change)).toEqual([]);
  });
});
