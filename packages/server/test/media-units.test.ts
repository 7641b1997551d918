/**
 * The media server's pieces that need no Janus: the answer the browser gets (DTX, 20 ms frames), and the
 * channel-to-Janus assignment every app instance agrees on (memory; Redis with TEST_REDIS_URL).
 */
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import {
  type AssignmentRedis,
  type AssignmentStore,
  candidateFor,
  memoryAssignments,
  redisAssignments,
} from '../src/janus/assignments.ts';
import { tuneAnswer } from '../src/realtime/media/janus/sdp.ts';

const JANUS_ANSWER = [
  'v=0',
  'o=- 1 1 IN IP4 127.0.0.1',
  's=Janus',
  't=0 0',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'a=mid:0',
  'a=sendrecv',
  'a=rtpmap:111 opus/48000/2',
  'a=fmtp:111 useinbandfec=1;usedtx=0',
  'a=ptime:10',
  '',
].join('\r\n');

describe('the answer a browser gets from the media server', () => {
  it('asks the browser for FEC, DTX and 20 ms frames (the AudioBridge mixes 20 ms, one packet a tick)', () => {
    const tuned = tuneAnswer(JANUS_ANSWER);
    expect(tuned).toContain('a=fmtp:111 useinbandfec=1;usedtx=1\r\n');
    // FEC asked for even where the media server's answer turned it off.
    expect(tuneAnswer(JANUS_ANSWER.replace('useinbandfec=1;usedtx=0', 'minptime=10;useinbandfec=0'))).toContain(
      'a=fmtp:111 minptime=10;useinbandfec=1;usedtx=1\r\n',
    );
    expect(tuned.match(/a=ptime:\d+/g)).toEqual(['a=ptime:20']);
    expect(tuned.endsWith('\r\n')).toBe(true);
  });

  it('gives an Opus without parameters a line of its own and leaves a description without Opus alone', () => {
    const bare = JANUS_ANSWER.replace('a=fmtp:111 useinbandfec=1;usedtx=0\r\n', '');
    expect(tuneAnswer(bare)).toContain(
      'a=rtpmap:111 opus/48000/2\r\na=fmtp:111 useinbandfec=1;usedtx=1\r\na=ptime:20\r\n',
    );
    const pcmu = 'v=0\r\nm=audio 9 RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\n';
    expect(tuneAnswer(pcmu)).toBe(pcmu);
  });
});

function assignmentTests(name: string, make: () => Promise<{ store: () => AssignmentStore; close(): Promise<void> }>) {
  describe(`channel assignments (${name})`, () => {
    it('keeps a channel on its Janus while it is alive, and moves it once to the candidate when it dies', async () => {
      const { store, close } = await make();
      try {
        const [one, two] = [store(), store()];
        const urls = ['ws://a:8188', 'ws://b:8188'];
        // Two instances asking at once with different candidates agree on one.
        const [first, second] = await Promise.all([one.assign(7, urls[0], urls), two.assign(7, urls[1], urls)]);
        expect(first).toBe(second);
        const other = urls.find((url) => url !== first) as string;
        expect(await two.assign(7, other, urls)).toBe(first);
        // Its Janus died: the first to notice moves it, the other follows.
        expect(await one.assign(7, other, [other])).toBe(other);
        expect(await two.assign(7, first, urls)).toBe(other);
      } finally {
        await close();
      }
    });

    it('runs work under one name one at a time, across instances', async () => {
      const { store, close } = await make();
      try {
        const [one, two] = [store(), store()];
        const seen: string[] = [];
        const work = (tag: string) => async () => {
          seen.push(`${tag} in`);
          await new Promise((resolve) => setTimeout(resolve, 30));
          seen.push(`${tag} out`);
        };
        await Promise.all([one.exclusive('room:7', work('one')), two.exclusive('room:7', work('two'))]);
        const [first] = seen[0].split(' ');
        const second = first === 'one' ? 'two' : 'one';
        expect(seen).toEqual([`${first} in`, `${first} out`, `${second} in`, `${second} out`]);
      } finally {
        await close();
      }
    });
  });
}

assignmentTests('memory', async () => {
  const shared = memoryAssignments();
  return { store: () => shared, close: async () => {} };
});

const redisUrl = process.env.TEST_REDIS_URL;
if (redisUrl)
  assignmentTests('Redis', async () => {
    const prefix = `test-${randomBytes(6).toString('hex')}:`;
    const clients: Array<{ close(): Promise<unknown> }> = [];
    return {
      store: () => {
        const client = createClient({ url: redisUrl });
        clients.push(client);
        void client.connect();
        return redisAssignments(client as unknown as AssignmentRedis, prefix);
      },
      async close() {
        for (const client of clients) await client.close();
      },
    };
  });

describe('the candidate Janus of a channel', () => {
  it('is the same for every instance, spreads channels, and moves only the dead one channels', () => {
    const urls = ['ws://a:8188', 'ws://b:8188', 'ws://c:8188'];
    const placed = Array.from({ length: 300 }, (_, channelId) => candidateFor(channelId, urls));
    expect(placed).toEqual(Array.from({ length: 300 }, (_, channelId) => candidateFor(channelId, [...urls].reverse())));
    for (const url of urls) expect(placed.filter((one) => one === url).length).toBeGreaterThan(60);
    const survivors = urls.slice(1);
    for (const [channelId, url] of placed.entries())
      if (url !== urls[0]) expect(candidateFor(channelId, survivors)).toBe(url);
    expect(candidateFor(1, [])).toBeUndefined();
  });
});
