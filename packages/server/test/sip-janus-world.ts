/**
 * A realtime world whose channels' voice goes through a Janus of the test's own, with SIP gateways on: what a
 * gateway's call needs to be answered (sip-gateway, sip-abuse, sip-hostile, sip-relay-threads). One database, as the
 * media path is what these test; the gateways' storage is tested on both (gateways.test.ts).
 */
import { afterEach, beforeEach } from 'vitest';
import type { Config } from '../src/config/config.ts';
import { type TestJanus, testJanus, testSipConfig } from './janus-harness.ts';
import { type RealtimeWorld, realtimeWorld } from './realtime-world.ts';

export function sipJanusWorld(sip: () => NonNullable<Config['sip']> = () => testSipConfig()): RealtimeWorld {
  let janus: TestJanus | undefined;
  beforeEach(async () => {
    janus = await testJanus();
  });
  const world = realtimeWorld('sqlite', () => ({
    janusUrls: [janus?.url ?? ''],
    janusApiSecret: janus?.secret,
    sip: sip(),
  }));
  // Registered after the world's: with Vitest's stacked hooks, Janus stops after the test's own cleanups (its
  // phones, its pages) and before the server closes.
  afterEach(async () => {
    await janus?.stop();
    janus = undefined;
  });
  return world;
}
