/**
 * The user call view's link (spec sections 2 and 3): its last path segment is a URL-encoded JSON object
 * { channelId, userId, token }. Ids may come as numbers or strings of digits.
 */
export interface CallLink {
  channelId: number;
  userId: number;
  token: string;
}

function toId(value: unknown): number | null {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
}

/** The link's data, or null when it is not a valid call link. Accepts the segment encoded or decoded. */
export function parseCallLink(segment: string | undefined): CallLink | null {
  if (!segment) return null;
  for (const candidate of [segment, safeDecode(segment)]) {
    if (candidate === null) continue;
    try {
      const data: unknown = JSON.parse(candidate);
      if (!data || typeof data !== 'object') continue;
      const { channelId, userId, token } = data as Record<string, unknown>;
      const channel = toId(channelId);
      const user = toId(userId);
      if (channel && user && typeof token === 'string' && token.trim() !== '') {
        return { channelId: channel, userId: user, token: token.trim() };
      }
    } catch {
      // not JSON: try the decoded form
    }
  }
  return null;
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** What a window event asks of the microphone: true (on), false (off), or null (not a mic event). */
export function micRequestOf(data: unknown): boolean | null {
  if (typeof data === 'boolean') return data;
  if (typeof data === 'string') {
    const word = data.trim().toLowerCase();
    if (['micon', 'mic_on', 'unmute', 'talk', 'ptt_down', 'pttdown'].includes(word)) return true;
    if (['micoff', 'mic_off', 'mute', 'ptt_up', 'pttup'].includes(word)) return false;
    if (word.startsWith('{')) {
      try {
        return micRequestOf(JSON.parse(data));
      } catch {
        return null;
      }
    }
    return null;
  }
  if (data && typeof data === 'object') {
    const record = data as Record<string, unknown>;
    for (const key of ['micState', 'mic', 'enabled', 'on']) {
      if (typeof record[key] === 'boolean') return record[key] as boolean;
    }
    if (typeof record.type === 'string') return micRequestOf(record.type);
  }
  return null;
}
