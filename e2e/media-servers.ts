/**
 * Browser tests through the media server: a Talkgroup server started with JANUS_URL pointing at a Janus of
 * the test's own (Debian's package, the shipped configuration, free ports: packages/server/test/janus-harness.ts),
 * and a coturn of its own for the relay-only test. Each returns what the test needs and a `stop` that ends
 * everything it started.
 */
import type { Page } from '@playwright/test';
import { hostAddress, randomSecret, startCoturn } from '../packages/server/src/ops/dev-media.ts';
import { janusInspector, type TestJanus, testJanus } from '../packages/server/test/janus-harness.ts';
import { freePort } from '../packages/server/test/process-harness.ts';
import {
  type Account,
  createAdmin,
  expect,
  type Seed,
  seedFor,
  startServer,
  type TalkgroupServer,
} from './fixtures.ts';

export interface JanusDeployment {
  janus: TestJanus;
  server: TalkgroupServer;
  admin: Account;
  seed: Seed;
  stop(): Promise<void>;
}

/** Janus and a server that sends every channel's voice through it (`env`: more settings, TURN for one). */
export async function janusDeployment(env: Record<string, string> = {}): Promise<JanusDeployment> {
  const janus = await testJanus();
  let server: TalkgroupServer | undefined;
  try {
    server = await startServer({ JANUS_URL: janus.url, JANUS_API_SECRET: janus.secret, ...env });
    const admin = await createAdmin(server);
    const started = server;
    return {
      janus,
      server,
      admin,
      seed: seedFor(server, admin),
      async stop() {
        await started.stop();
        await janus.stop();
      },
    };
  } catch (error) {
    await server?.stop();
    await janus.stop();
    throw error;
  }
}

/**
 * coturn with a shared secret (TURN_SECRET), relaying from this machine's address to Janus's candidates on
 * it: the shipped file denies that address (a private or reserved one), so the test allows it alone.
 */
export async function testCoturn(): Promise<{ url: string; secret: string; stop(): Promise<void> }> {
  const secret = randomSecret();
  const port = await freePort();
  const base = 45_000 + Math.floor(Math.random() * 40) * 100;
  const turn = await startCoturn({ port, secret, relayPorts: [base, base + 99], allowPeers: [hostAddress()] });
  return { url: `${turn.url}?transport=udp`, secret, stop: turn.stop };
}

/** The names of the participants of a channel's room on this Janus. */
export async function roomParticipants(janus: TestJanus, channelId: number): Promise<string[]> {
  const inspector = await janusInspector(janus.url);
  try {
    return (await inspector.participants(channelId)).map((participant) => participant.display ?? '').sort();
  } finally {
    await inspector.close();
  }
}

/**
 * Keeps every microphone stream the page opens in `window.__microphones`, so that a test can switch a track on
 * behind the app's back (a client that ignores the floor). Call before the page loads.
 */
export async function exposeMicrophones(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const open = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    const kept: MediaStream[] = [];
    (window as unknown as { __microphones: MediaStream[] }).__microphones = kept;
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await open(constraints);
      kept.push(stream);
      return stream;
    };
  });
}

/** Switches the page's microphone tracks on (or off) without the app knowing. */
export async function forceMicrophone(page: Page, on: boolean): Promise<void> {
  const forced = await page.evaluate((enabled) => {
    let count = 0;
    for (const stream of (window as unknown as { __microphones?: MediaStream[] }).__microphones ?? [])
      for (const track of stream.getAudioTracks())
        if (track.readyState === 'live') {
          track.enabled = enabled;
          count += 1;
        }
    return count;
  }, on);
  expect(forced).toBeGreaterThan(0);
}

/** The transport label of a room page: how its voice travels. */
export function transportOf(page: Page) {
  return page.getByTestId('voice-transport');
}
