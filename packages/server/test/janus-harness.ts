/**
 * A real Janus for the media server's tests: Debian's package with the shipped configuration (deploy/janus/,
 * through startJanus) and scheduled as its systemd drop-in schedules it (real-time, where this process may
 * give it: a test on a loaded machine hears what production would), its API on a free port and its media on a
 * UDP range of its own (other test runs on this machine use theirs). `kill` ends it the hard way (SIGKILL, a
 * crash) or freezes it (SIGSTOP, a hung Janus); `restart` starts it again on the same ports.
 */

import type { Config } from '../src/config/config.ts';
import { JanusConnection, JanusSession } from '../src/janus/connection.ts';
import { janusKeys } from '../src/janus/secrets.ts';
import { JANUS_REALTIME_PRIORITY, type MediaProcess, randomSecret, startJanus } from '../src/ops/dev-media.ts';
import { freePort } from './process-harness.ts';

/**
 * The API secret (and admin key) of every test Janus of this process, like a deployment's JANUS_API_SECRET:
 * one value for all its Janus instances. Apps of the tests get it as `janusApiSecret`.
 */
export const TEST_JANUS_SECRET = randomSecret();

export interface TestJanus {
  url: string;
  /** Its api_secret and admin_key (TEST_JANUS_SECRET). */
  secret: string;
  pid(): number;
  /** Ends it (SIGKILL) or freezes it (SIGSTOP, resumed by `resume`). */
  kill(signal?: 'SIGKILL' | 'SIGSTOP'): Promise<void>;
  resume(): void;
  restart(): Promise<void>;
  stop(): Promise<void>;
  output(): string;
}

/** A random block of UDP ports for one Janus (its ICE and its plugins' RTP). */
export function portBlock(size = 200): [number, number] {
  const base = 30_000 + Math.floor(Math.random() * 120) * size;
  return [base, base + size - 1];
}

export async function testJanus(): Promise<TestJanus> {
  const wsPort = await freePort();
  const rtpPorts = portBlock();
  const start = () => startJanus({ wsPort, rtpPorts, apiSecret: TEST_JANUS_SECRET, realtime: JANUS_REALTIME_PRIORITY });
  let running: MediaProcess = await start();
  return {
    url: running.url,
    secret: TEST_JANUS_SECRET,
    pid: () => running.pid,
    async kill(signal = 'SIGKILL') {
      if (signal === 'SIGSTOP') {
        process.kill(running.pid, 'SIGSTOP');
        return;
      }
      const { pid } = running;
      process.kill(pid, 'SIGKILL');
      // Gone once its port no longer answers; `stop` then resolves at once.
      await running.stop();
    },
    resume() {
      process.kill(running.pid, 'SIGCONT');
    },
    async restart() {
      running = await start();
    },
    async stop() {
      try {
        process.kill(running.pid, 'SIGCONT');
      } catch {}
      await running.stop();
    },
    output: () => running.output(),
  };
}

/**
 * The test's own look into a Janus (what rooms and participants it has), on a session of its own, with the
 * API secret (the admin key lists the private rooms).
 */
export async function janusInspector(url: string, secret = TEST_JANUS_SECRET) {
  const silent = { info() {}, warn() {}, error() {}, debug() {} } as never;
  let connection!: JanusConnection;
  await new Promise<void>((resolve) => {
    connection = new JanusConnection({ url, apiSecret: secret, log: silent, onUp: resolve, onDown() {} });
    connection.start();
  });
  const session = await JanusSession.create(connection);
  const [audiobridge, videoroom, streaming] = await Promise.all([
    session.attach('janus.plugin.audiobridge'),
    session.attach('janus.plugin.videoroom'),
    session.attach('janus.plugin.streaming'),
  ]);
  const keys = janusKeys(secret);
  return {
    /** The channels whose VideoRoom room (their talkers' uplinks) is there. */
    async rooms(): Promise<number[]> {
      const listed = await videoroom.message({ request: 'list', admin_key: secret });
      return ((listed.data.list as Array<{ room: number }> | undefined) ?? []).map((room) => room.room);
    },
    /** The channel's VideoRoom room is there. */
    async exists(room: number): Promise<boolean> {
      const answer = await videoroom.message({ request: 'exists', room });
      return answer.data.exists === true;
    },
    /**
     * Who is in the channel's VideoRoom room (`publisher`: its microphone's connection is up), by the name the
     * app gave it (the display without the mid the app puts in front: feed.ts).
     */
    async participants(room: number): Promise<Array<{ id: number; display?: string; publisher: boolean }>> {
      const listed = await videoroom.message({ request: 'listparticipants', room });
      return ((listed.data.participants as Array<{ id: number; display?: string; publisher: boolean }>) ?? []).map(
        (participant) => ({ ...participant, display: participant.display?.replace(/^mid:[^;]*;/, '') }),
      );
    },
    /** The channel's AudioBridge room (patches, spec clients) is there. */
    async bridgeExists(room: number): Promise<boolean> {
      const answer = await audiobridge.message({ request: 'exists', room });
      return answer.data.exists === true;
    },
    async bridgeParticipants(room: number): Promise<BridgeParticipant[]> {
      const listed = await audiobridge.message({ request: 'listparticipants', room });
      return (listed.data.participants as BridgeParticipant[]) ?? [];
    },
    /** Pages watching the channel's mountpoint, and the forwarders feeding it now; null: no mountpoint. */
    async mountpoint(id: number): Promise<{ viewers: number } | null> {
      const answer = await streaming
        .message({ request: 'info', id, secret: keys.roomSecret(id) })
        .catch(() => undefined);
      const info = answer?.data.info as { viewers?: number } | undefined;
      return info ? { viewers: Number(info.viewers ?? 0) } : null;
    },
    /** The VideoRoom's forwarders of the channel (only the floor holder's, while it holds it). */
    async forwarders(room: number): Promise<Array<{ publisher_id: number; forwarders: unknown[] }>> {
      const listed = await videoroom.message({ request: 'listforwarders', room, secret: keys.roomSecret(room) });
      return (listed.data.publishers as Array<{ publisher_id: number; forwarders: unknown[] }>) ?? [];
    },
    close: () => connection.stop(),
  };
}

export interface BridgeParticipant {
  id: number;
  display?: string;
  muted: boolean;
  setup: boolean;
}

/**
 * A SIP server for a test (issue 51): on loopback, a free SIP port (SIP_PORT=0), its media in a block of ports of
 * its own, and `requestsPerMinute` INVITEs and REGISTERs an address may send.
 */
export function testSipConfig(requestsPerMinute = 120): NonNullable<Config['sip']> {
  const [min, max] = portBlock(100);
  return {
    port: 0,
    host: '127.0.0.1',
    publicAddress: '127.0.0.1',
    realm: 'talkgroup',
    rtpPorts: { min, max },
    requestsPerMinute,
  };
}
