/**
 * Socket.IO room names. A channel's room is keyed by its rtcSession, but with a prefix: a channel may be
 * called "admins", and its members must not receive what is meant for administrators.
 */

export const ADMINS_ROOM = 'admins';

/** Every socket of a channel's voice room. */
export function channelRoom(rtcSession: string): string {
  return `channel:${rtcSession}`;
}

export function isChannelRoom(room: string): boolean {
  return room.startsWith('channel:');
}

/** The sockets of a channel's room that may see the map (administrators and members with mapRight). */
export function mapRoom(rtcSession: string): string {
  return `map:${rtcSession}`;
}

/**
 * One socket, as seen from one channel. A relay is sent to peer(channel of the sender, target id), so it
 * reaches the target only when the target is in the sender's channel, on whichever instance it is
 * connected. Keyed by channel id, not rtcSession: a channel created later under a deleted one's name is
 * another room.
 */
export function peerRoom(channelId: number, socketId: string): string {
  return `peer:${channelId}:${socketId}`;
}

export function userRoom(userId: number): string {
  return `user:${userId}`;
}

/**
 * The sockets that watch a channel from outside its room (the members' channel list): they hear who talks
 * there (onMicStateChanged), nothing else. Keyed by channel id, which a rename does not change.
 */
export function lobbyRoom(channelId: number): string {
  return `lobby:${channelId}`;
}

/** The channel of a lobby room, or undefined for any other room. */
export function lobbyChannelOf(room: string): number | undefined {
  const match = /^lobby:(\d+)$/.exec(room);
  return match ? Number(match[1]) : undefined;
}

/**
 * The sockets of users who supervise a channel from anywhere in the console (dispatchers: its activities, its
 * SOS alerts, its members' presence), whether or not they are in its room. Administrators hear everything in
 * ADMINS_ROOM. Keyed by channel id, which a rename does not change.
 */
export function supervisorRoom(channelId: number): string {
  return `supervise:${channelId}`;
}

/** The sockets of pages that have the dispatch console open (issue 49): they hear a waiting request's reminder. */
export const DISPATCH_CONSOLE_ROOM = 'dispatch-console';

/** The rooms of consoles: the administrators' and the supervisors' (not a channel's voice room). */
export function isConsoleRoom(room: string): boolean {
  return room === ADMINS_ROOM || room.startsWith('supervise:');
}

/** The channel of a supervisor room, or undefined for any other room. */
export function supervisedChannelOf(room: string): number | undefined {
  const match = /^supervise:(\d+)$/.exec(room);
  return match ? Number(match[1]) : undefined;
}
