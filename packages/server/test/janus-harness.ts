/**
 * A real Janus for the media server's tests: Debian's package with the shipped configuration (deploy/janus/,
 * through startJanus), its API on a free port and its media on a UDP range of its own (other test runs on
 * this machine use theirs). `kill` ends it the hard way (SIGKILL, a crash) or freezes it (SIGSTOP, a hung
 * Janus); `restart` starts it again on the same ports.
 */
import { type MediaProcess, randomSecret, startJanus } from '../src/ops/dev-media.ts';
import { JanusConnection, type JanusHandle, JanusSession } from '../src/realtime/media/janus/connection.ts';
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
function portBlock(size = 200): [number, number] {
  const base = 30_000 + Math.floor(Math.random() * 120) * size;
  return [base, base + size - 1];
}

export async function testJanus(): Promise<TestJanus> {
  const wsPort = await freePort();
  const rtpPorts = portBlock();
  const start = () => startJanus({ wsPort, rtpPorts, apiSecret: TEST_JANUS_SECRET });
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
  const audiobridge: JanusHandle = await session.attach('janus.plugin.audiobridge');
  return {
    async rooms(): Promise<number[]> {
      const listed = await audiobridge.message({ request: 'list', admin_key: secret });
      return ((listed.data.list as Array<{ room: number }> | undefined) ?? []).map((room) => room.room);
    },
    async exists(room: number): Promise<boolean> {
      const answer = await audiobridge.message({ request: 'exists', room });
      return answer.data.exists === true;
    },
    async participants(room: number): Promise<Array<{ id: number; display?: string; muted: boolean; setup: boolean }>> {
      const listed = await audiobridge.message({ request: 'listparticipants', room });
      return (
        (listed.data.participants as Array<{ id: number; display?: string; muted: boolean; setup: boolean }>) ?? []
      );
    },
    close: () => connection.stop(),
  };
}
