/** What the soak run's server (server.ts) and its driver (run.ts) agree on. */
export const ROOM_SIZE = 50;

export interface SoakServerInfo {
  port: number;
  pid: number;
  /** Each socket's room is rooms[Math.floor(i / ROOM_SIZE)]. */
  rooms: string[];
  channelIds: number[];
  tokens: string[];
  admin: string;
}
