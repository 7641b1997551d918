/** Presence changes patch the cached channel list with the counts they carry (no refetch of the whole list). */
import { describe, expect, it } from 'vitest';
import { patchConnected } from './directory.ts';

const channel = (id: number, connected: number) => ({
  id,
  name: `C${id}`,
  rtcSession: `C${id}`,
  createdAt: '2026-01-01T00:00:00.000Z',
  users: [],
  connected,
  userActivities: [],
});

describe('patchConnected', () => {
  const answer = { success: true, res: [channel(1, 0), channel(2, 3), channel(3, 1)] };

  it('sets the counts it is given and keeps the other channels as they are (same objects)', () => {
    const patched = patchConnected(answer, [
      { channelId: 1, connected: 2 },
      { channelId: 3, connected: 0 },
      { channelId: 99, connected: 5 },
    ]);
    expect(patched?.res.map((c) => c.connected)).toEqual([2, 3, 0]);
    expect(patched?.res[1]).toBe(answer.res[1]);
  });

  it('returns the same answer when nothing changes, and nothing when nothing is cached', () => {
    expect(patchConnected(answer, [{ channelId: 2, connected: 3 }])).toBe(answer);
    expect(patchConnected(answer, [])).toBe(answer);
    expect(patchConnected(undefined, [{ channelId: 1, connected: 1 }])).toBeUndefined();
  });
});
