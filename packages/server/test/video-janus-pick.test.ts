/**
 * Which Janus a new live video goes through (issue 61): the one its channel's voice ranks first among those that
 * answer (assignments.ts), so a channel's video and voice share a Janus; none answers: peer to peer.
 */
import { describe, expect, it } from 'vitest';
import { candidateFor } from '../src/janus/assignments.ts';
import { type JanusVideoDeps, janusVideo } from '../src/video/janus-video.ts';

const urls = ['ws://janus-a:8188', 'ws://janus-b:8188', 'ws://janus-c:8188'];
const withAlive = (alive: string[]) =>
  janusVideo({ backends: { alive: () => alive.map((url) => ({ url, up: true })) } } as unknown as JanusVideoDeps);

describe('the Janus of a new live video', () => {
  it("takes the channel's voice placement among the Janus that answer, else none", () => {
    const video = withAlive(urls);
    const chosen = new Set<string | undefined>();
    for (let channelId = 1; channelId <= 30; channelId++) {
      expect(video.pick(channelId)).toBe(candidateFor(channelId, urls));
      chosen.add(video.pick(channelId));
    }
    // Channels spread over the Janus instances, not all on the first.
    expect(chosen.size).toBeGreaterThan(1);
    expect(withAlive([]).pick(1)).toBeUndefined();
  });
});
