/**
 * Who is talking now in each monitored channel, live, from the rooms' pushes on the page's socket
 * (onMicStateChanged names the room; a peer that leaves stops talking); forgotten when the link drops.
 */
import { useState } from 'react';
import { useServerEvent } from '../../api/serverEvents.ts';

export type Talkers = ReadonlyMap<string, ReadonlyMap<string, string>>;

export function useTalkers(): Talkers {
  const [talkers, setTalkers] = useState<Talkers>(() => new Map());
  const change = (room: string, socketId: string, name: string | null) =>
    setTalkers((current) => {
      const inRoom = new Map(current.get(room) ?? []);
      if (name === null) {
        if (!inRoom.delete(socketId)) return current;
      } else if (inRoom.get(socketId) === name) return current;
      else inRoom.set(socketId, name);
      const next = new Map(current);
      next.set(room, inRoom);
      return next;
    });
  useServerEvent('onMicStateChanged', ({ id, name, micState, room }) => change(room, id, micState ? name : null));
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
