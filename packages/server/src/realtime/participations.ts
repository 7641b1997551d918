/**
 * A socket's channels (Mumble keeps the channels a user listens to as a set per user; a socket here keeps its
 * participations): which one an event is about, and the Socket.IO rooms a participation puts it in.
 */
import type { ChannelStanding } from '@talkgroup/protocol';
import { channelRoom, mapRoom, peerRoom } from '../sockets/room-names.ts';
import type { Participation, SocketData } from './io.ts';
import { SocketInputError } from './socket-tasks.ts';

export function participationIn(data: SocketData, channelId: number): Participation | undefined {
  return data.participations.find((p) => p.channelId === channelId);
}

/** The standing a participation was given at its join (kept up to date by the room guard). */
export function standingIn(at: Pick<Participation, 'mayTalk' | 'memberRightsOnly'>): ChannelStanding {
  return { member: true, canTalk: at.mayTalk, memberRightsOnly: at.memberRightsOnly === true };
}

export function participationByRoom(data: SocketData, room: string): Participation | undefined {
  return data.participations.find((p) => p.room === room);
}

/** The participation an event is about (see SocketScope.requireRoom). */
export function resolveParticipation(data: SocketData, event: string, claimed?: string): Participation {
  const { participations } = data;
  if (claimed) {
    const named = participationByRoom(data, claimed);
    if (named) return named;
    if (participations.length === 1)
      throw new SocketInputError(
        `${event}: this socket is in the room "${participations[0].room}", not in "${claimed}".`,
      );
    if (participations.length > 1) throw new SocketInputError(`${event}: this socket is not in the room "${claimed}".`);
  }
  if (participations.length === 0) throw new SocketInputError(`${event}: join a room first (join_room).`);
  if (participations.length > 1)
    throw new SocketInputError(
      `${event}: this socket is in ${participations.length} rooms: name the room the event is about (room).`,
    );
  return participations[0];
}

/** The Socket.IO rooms of a participation; the map room only for those who may see the channel's map. */
export function roomsOf(socketId: string, at: Pick<Participation, 'room' | 'channelId' | 'seesMap'>): string[] {
  const rooms = [channelRoom(at.room), peerRoom(at.channelId, socketId)];
  if (at.seesMap) rooms.push(mapRoom(at.room));
  return rooms;
}
