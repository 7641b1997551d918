/**
 * The room's keys in the browser's local storage, in one place. `roomId`, `channelId` and `channelName` are
 * the spec's browser storage (the channel last shown in a room); the voice processing choice is ours.
 * Storage may be disabled (private modes, policies): reads fall back, writes are dropped, and the room works.
 */
export const ROOM_STORAGE_KEYS = {
  roomId: 'roomId',
  channelId: 'channelId',
  channelName: 'channelName',
  /** 'off' turns echo cancellation, noise suppression and automatic gain off; anything else keeps them. */
  voiceProcessing: 'talkgroup.voiceProcessing',
} as const;

export type RoomStorageKey = keyof typeof ROOM_STORAGE_KEYS;

/**
 * The room keys of spec section 3 cleared at logout with the user (`data` and `selectedChannel` are kept
 * by the call views of older clients); the voice processing choice is the device's and stays.
 */
export const ROOM_SESSION_KEYS = [
  ROOM_STORAGE_KEYS.roomId,
  'data',
  ROOM_STORAGE_KEYS.channelId,
  ROOM_STORAGE_KEYS.channelName,
  'selectedChannel',
] as const;

export function readRoomStorage(key: RoomStorageKey): string | null {
  try {
    return localStorage.getItem(ROOM_STORAGE_KEYS[key]);
  } catch {
    return null;
  }
}

/** Writes each given key; returns false when the storage refused (the value then lasts for this page only). */
export function writeRoomStorage(values: Partial<Record<RoomStorageKey, string>>): boolean {
  try {
    for (const [key, value] of Object.entries(values) as Array<[RoomStorageKey, string]>) {
      localStorage.setItem(ROOM_STORAGE_KEYS[key], value);
    }
    return true;
  } catch {
    return false;
  }
}

/** Voice history: the start time of the last transmission listened to in a channel ("play missed" starts after it). */
const voiceListenedKey = (channelId: number) => `talkgroup.voiceListened.${channelId}`;

export function readVoiceListened(channelId: number): string | null {
  try {
    return localStorage.getItem(voiceListenedKey(channelId));
  } catch {
    return null;
  }
}

export function writeVoiceListened(channelId: number, startedAt: string): void {
  try {
    localStorage.setItem(voiceListenedKey(channelId), startedAt);
  } catch {
    // Storage refused: the marker lasts for this page only.
  }
}
