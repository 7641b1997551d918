/** Shapes the server returns (spec section 3). Times are ISO 8601 strings in UTC. */

export type Role = 'admin' | 'member';

export const ACTIVITY_TYPES = [
  'login',
  'logout',
  'position_update',
  'position_get',
  'message_send',
  'image_send',
  'message_read',
  'channel_talk',
  'channel_join',
  'channel_leave',
  'connexion_lost',
  'channel_creation',
  'channel_update',
  'channel_delete',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** Activity types that have a timeline sentence (spec section 3). */
export const TIMELINE_ACTIVITY_TYPES = [
  'login',
  'logout',
  'channel_update',
  'channel_creation',
  'channel_delete',
  'message_send',
  'image_send',
  'channel_join',
  'channel_talk',
  'channel_leave',
] as const satisfies readonly ActivityType[];

export interface Activity {
  id: number;
  type: ActivityType;
  createdAt: string;
  /** Names are kept on the activity so that it still reads after the user or channel is deleted. */
  user: { id: number | null; firstName: string; lastName: string; display_name: string } | null;
  channel: { id: number | null; name: string } | null;
}

export interface UserSocket {
  userId: number;
  channelId: number | null;
  socket_id: string;
}

export interface UserPosition {
  lat: number;
  lng: number;
  accuracy: number | null;
  createdAt: string;
}

export interface ChannelRef {
  id: number;
  name: string;
  rtcSession: string;
}

export interface User {
  id: number;
  firstName: string;
  lastName: string;
  identifier: string;
  email: string;
  pseudo: string;
  display_name: string;
  phone_number: string;
  photo_url: string | null;
  mapRight: boolean;
  role: Role;
  createdAt: string;
  channels: ChannelRef[];
  user_sockets: UserSocket[];
  /** Latest first. */
  userPositions: UserPosition[];
  /** Latest first. */
  userActivities: Activity[];
}

export interface Channel {
  id: number;
  name: string;
  rtcSession: string;
  createdAt: string;
  users: Array<Pick<User, 'id' | 'firstName' | 'lastName' | 'identifier' | 'pseudo' | 'display_name'>>;
  /** How many distinct members have a socket in this channel now. */
  connected: number;
  /** Latest first; at most one entry: the latest activity of the channel. */
  userActivities: Activity[];
}

export interface MessageFile {
  path: string;
  fileName: string;
}

export interface Message {
  id: number;
  userId: number | null;
  channelId: number;
  textMsg: string;
  createdAt: string;
  file: MessageFile | null;
  user: { display_name: string };
}

/** The user that sign-in returns and the browser keeps. */
export interface SignedInUser {
  id: number;
  identifier: string;
  email: string;
  firstName: string;
  lastName: string;
  display_name: string;
  pseudo: string;
  role: Role;
  mapRight: boolean;
  authToken: string;
}

/** Legacy (spec section 3): a registered radio or phone. */
export interface Device {
  id: number;
  display_name: string;
  mac_address: string;
  type: string;
  manufacturer: string;
  product_ref: string;
  createdAt: string;
}

export interface MaterialType {
  id: number;
  name: string;
  createdAt: string;
}

/** Legacy call events: one per recorded talk burst. */
export interface CallEvent {
  /** The talk burst's id, used as callId. */
  id: number;
  userId: number | null;
  channelId: number | null;
  channelName: string;
  startedAt: string;
  /** null while the burst is still going on. */
  endedAt: string | null;
}
