/**
 * When this instance's sockets arrived where presence is heard: connected (their user's, the administrators'
 * and the supervisors' rooms are joined then), or joined a channel's room. A gathered presence change is
 * rendered for the spec's clients (one event per user: legacy/client-kinds.ts) only to the sockets that were
 * there when it happened; a socket that arrived in every room that hears of it afterwards read the presence as
 * it then was (the peers in `all_users`, the lists a page fetches as it opens), and the change is no news to it.
 * In a join storm this is much of what a spec client would get: a crowd's changes wait a moment to be gathered
 * (status.ts), and each socket arriving in that moment would hear every one of them again.
 *
 * Only the last KEEP_MS of arrivals are kept: an earlier one counts as always there, so that a doubt always
 * sends the event.
 */
import { performance } from 'node:perf_hooks';
import { isChannelRoom } from '../sockets/room-names.ts';

const KEEP_MS = 60_000;

interface Arrival {
  socketId: string;
  /** A channel room, or null for the connection (every other room is joined then). */
  room: string | null;
  /** performance.now(): a change and a join in the same millisecond are still in order. */
  at: number;
}

export function arrivals(roomsOf: (socketId: string) => ReadonlySet<string> | undefined) {
  const recent: Arrival[] = [];

  function note(arrival: Arrival): void {
    recent.push(arrival);
    // In arrival order: the old ones are at the front.
    let old = 0;
    while (old < recent.length && recent[old].at < arrival.at - KEEP_MS) old += 1;
    if (old > 0) recent.splice(0, old);
  }

  /** When the socket arrived in this room, as far as the last KEEP_MS tell (-Infinity: before). */
  function arrivedIn(room: string, joins: Map<string, number>, connectedAt: number): number {
    if (isChannelRoom(room)) return joins.get(room) ?? Number.NEGATIVE_INFINITY;
    return connectedAt;
  }

  return {
    connected(socketId: string): void {
      note({ socketId, room: null, at: performance.now() });
    },
    joined(socketId: string, room: string): void {
      note({ socketId, room, at: performance.now() });
    },
    /** This instance's sockets in some of `rooms`, each of which they arrived in after `at` (performance.now()). */
    cameAfter(rooms: readonly string[], at: number): string[] {
      const seen = new Map<string, { connectedAt: number; joins: Map<string, number> }>();
      for (let i = recent.length - 1; i >= 0 && recent[i].at > at; i -= 1) {
        const arrival = recent[i];
        const entry = seen.get(arrival.socketId) ?? {
          connectedAt: Number.NEGATIVE_INFINITY,
          joins: new Map<string, number>(),
        };
        if (arrival.room === null) entry.connectedAt = arrival.at;
        else if (!entry.joins.has(arrival.room)) entry.joins.set(arrival.room, arrival.at);
        seen.set(arrival.socketId, entry);
      }
      const late: string[] = [];
      for (const [socketId, { connectedAt, joins }] of seen) {
        const present = roomsOf(socketId);
        if (!present) continue;
        const heard = rooms.filter((room) => present.has(room));
        if (heard.length > 0 && heard.every((room) => arrivedIn(room, joins, connectedAt) > at)) late.push(socketId);
      }
      return late;
    },
  };
}

export type Arrivals = ReturnType<typeof arrivals>;
