/**
 * Browser tests through the media server: a Talkgroup server started with JANUS_URL pointing at a Janus of
 * the test's own (Debian's package, the shipped configuration, free ports: packages/server/test/janus-harness.ts),
 * and a coturn of its own for the relay-only test. Each returns what the test needs and a `stop` that ends
 * everything it started.
 */
import type { Page } from '@playwright/test';
import { hostAddress, randomSecret, startCoturn } from '../packages/server/src/ops/dev-media.ts';
import { type TestJanus, testJanus } from '../packages/server/test/janus-harness.ts';
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

/**
 * What the tests started and have not stopped yet: a test that runs out of time never reaches its own
 * `finally`, so each spec stops them after each test (`test.afterEach(stopLeftovers)`), or the servers and
 * media servers of a timed-out test would go on loading the machine for the tests after it.
 */
const running = new Set<() => Promise<void>>();

/** Runs `stop` once, whoever asks first (the test's `finally`, or stopLeftovers). */
function stopOnce(stop: () => Promise<void>): () => Promise<void> {
  let stopped: Promise<void> | undefined;
  const once = () => {
    running.delete(once);
    stopped ??= stop();
    return stopped;
  };
  running.add(once);
  return once;
}

/** Stops whatever a test started here and left running (it ran out of time). */
export async function stopLeftovers(): Promise<void> {
  await Promise.allSettled([...running].map((stop) => stop()));
}

/** Janus and a server that sends every channel's voice through it (`env`: more settings, TURN for one). */
export async function janusDeployment(env: Record<string, string> = {}): Promise<JanusDeployment> {
  const janus = await testJanus();
  let server: TalkgroupServer | undefined;
  const stop = stopOnce(async () => {
    await server?.stop();
    await janus.stop();
  });
  try {
    server = await startServer({ JANUS_URL: janus.url, JANUS_API_SECRET: janus.secret, ...env });
    const admin = await createAdmin(server);
    return { janus, server, admin, seed: seedFor(server, admin), stop };
  } catch (error) {
    await stop();
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
  return { url: `${turn.url}?transport=udp`, secret, stop: stopOnce(turn.stop) };
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

/** Keeps every RTCPeerConnection the page makes in `window.__connections`. Call before the page loads. */
export async function exposeConnections(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const Native = window.RTCPeerConnection;
    const made: RTCPeerConnection[] = [];
    (window as unknown as { __connections: RTCPeerConnection[] }).__connections = made;
    window.RTCPeerConnection = class extends Native {
      constructor(configuration?: RTCConfiguration) {
        super(configuration);
        made.push(this);
      }
    };
  });
}

/**
 * For each open connection of the page: whether its own description and the other side's ask for Opus in-band
 * FEC (`useinbandfec=1` on Opus's fmtp line) in every audio section.
 */
export async function fecOnEveryLeg(page: Page): Promise<Array<{ local: boolean; remote: boolean }>> {
  return page.evaluate(() => {
    const asksFec = (sdp: string | undefined) => {
      const sections = (sdp ?? '').split(/\r?\n(?=m=)/).filter((section) => section.startsWith('m=audio'));
      return (
        sections.length > 0 &&
        sections.every((section) => {
          const opus = /^a=rtpmap:(\d+) opus\/48000/im.exec(section)?.[1];
          return opus !== undefined && new RegExp(`^a=fmtp:${opus} [^\\r\\n]*useinbandfec=1`, 'm').test(section);
        })
      );
    };
    return ((window as unknown as { __connections?: RTCPeerConnection[] }).__connections ?? [])
      .filter((pc) => pc.connectionState !== 'closed')
      .map((pc) => ({ local: asksFec(pc.localDescription?.sdp), remote: asksFec(pc.remoteDescription?.sdp) }));
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
