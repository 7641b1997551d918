/**
 * Who is talking now in each monitored channel, live, from the rooms' pushes on the page's socket
 * (onMicStateChanged names the room; a peer that leaves stops talking); forgotten when the link drops.
 */
import { useState } from 'react';
import { useServerEvent } from '../../api/serverEvents.ts';

/** Who talks in a room: its user (its status is shown beside its name) and the name it gave. */
export interface Talker {
  userId: number;
  name: string;
}

export type Talkers = ReadonlyMap<string, ReadonlyMap<string, Talker>>;

export function useTalkers(): Talkers {
  const [talkers, setTalkers] = useState<Talkers>(() => new Map());
  const change = (room: string, socketId: string, talker: Talker | null) =>
    setTalkers((current) => {
      const inRoom = new Map(current.get(room) ?? []);
      const before = inRoom.get(socketId);
      if (talker === null) {
        if (!inRoom.delete(socketId)) return current;
      } else if (before?.name === talker.name && before.userId === talker.userId) return current;
      else inRoom.set(socketId, talker);
      const next = new Map(current);
      next.set(room, inRoom);
      return next;
    });
  useServerEvent('onMicStateChanged', ({ id, userId, name, micState, room }) =>
    change(room, id, micState ? { userId, name } : null),
  );
  useServerEvent('user_exit', ({ id, room }) => change(room, id, null));
  useServerEvent('floor_idle', ({ room }) =>
    setTalkers((current) => {
      if (!current.get(room)?.size) return current;
      const next = new Map(current);
      next.delete(room);
      return next;
    }),
  );
  useServerEvent('disconnect' as never, (() => setTalkers(new Map())) as never);
  return talkers;
}
