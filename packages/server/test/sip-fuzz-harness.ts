/**
 * The SIP fuzzer's server processes (sip-fuzz.test.ts): each started as `npm start` starts it (process-harness.ts),
 * on a data directory and a SIP port of its own; an input that ends one is kept as a crash and the process started
 * again (SIP_FUZZ_RESTARTS times a part), so that a failure names the seed and each input that crashed it, with the
 * process's last words. Every wait on it is bounded and ends early when the process dies.
 */
import dgram from 'node:dgram';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { portBlock } from './janus-harness.ts';
import { exited, freePort, outputOf, post, type ServerProcess, startServer } from './process-harness.ts';
import { fuzzSeed } from './sip-mutations.ts';

export const SEED = fuzzSeed();
/** A batch ends at this many cases or bytes; then an OPTIONS must be answered before the next. */
export const BATCH_CASES = 40;
export const BATCH_BYTES = 120_000;
/** Bounds of each wait (a loaded 2-core CI): an answer, a call's set-up. */
export const WAIT_MS = 30_000;
const ADMIN = { login: 'boss@example.org', password: 'boss-password-1' };
export const FUZZ_LOGIN = 'radio-fuzz';

/** An input that ended the server process: what was sent, in which part, and the process's last words. */
interface Crash {
  part: string;
  input: string;
  cause: string;
}

/**
 * A server process under fuzz. When an input ends it, the crash is kept, the process is started again on the same
 * data and SIP port (at most MAX_RESTARTS times), and the fuzz goes on: one run names every input that crashes.
 */
export interface Victim {
  name: string;
  env: Record<string, string>;
  server: ServerProcess;
  sipPort: number;
  dir: string;
  /** Resolves when the current process exits (never, while it is well). */
  death: Promise<string>;
  crashes: Crash[];
  restarts: number;
}

const MAX_RESTARTS = Number(process.env.SIP_FUZZ_RESTARTS ?? 6);

/** The process ended while the test waited on it. */
class ServerDied extends Error {
  /** What the process printed as it died. */
  readonly why: string;

  constructor(message: string, why: string) {
    super(message);
    this.why = why;
  }
}

async function launch(victim: Pick<Victim, 'name' | 'env' | 'sipPort' | 'dir'>) {
  const [min, max] = portBlock(100);
  const server = await startServer({
    DATA_DIR: victim.dir,
    SIP_PORT: String(victim.sipPort),
    SIP_HOST: '127.0.0.1',
    SIP_PUBLIC_ADDRESS: '127.0.0.1',
    SIP_RTP_PORTS: `${min}-${max}`,
    ADMIN_LOGIN: ADMIN.login,
    ADMIN_PASSWORD: ADMIN.password,
    ...victim.env,
  });
  const death = exited(server.child).then(({ code, signal }) => {
    const output = outputOf(server.child);
    // What it printed after its last log line: the uncaught exception and its stack.
    const lines = output.split('\n');
    const last = lines.findLastIndex((line) => line.startsWith('{'));
    const words =
      lines
        .slice(last + 1)
        .join('\n')
        .trim() || output.slice(-1500);
    return `exited (code ${code}, signal ${signal}):\n${words.slice(0, 2500)}`;
  });
  return { server, death };
}

export async function startVictim(name: string, env: Record<string, string>): Promise<Victim> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tg-sip-fuzz-'));
  const sipPort = await freeSipPort();
  const { server, death } = await launch({ name, env, sipPort, dir });
  return { name, env, server, sipPort, dir, death, crashes: [], restarts: 0 };
}

/** Each part starts on a live process (one an earlier part left dead is started again), with its own restarts. */
export async function revive(victim: Victim): Promise<void> {
  victim.restarts = 0;
  if (victim.server.child.exitCode === null && victim.server.child.signalCode === null) return;
  Object.assign(victim, await launch(victim));
}

/** Keeps the crash and starts the process again, or throws when it has been restarted too often. */
export async function recover(victim: Victim, error: unknown, part: string, input: string): Promise<void> {
  if (!(error instanceof ServerDied)) throw error;
  victim.crashes.push({ part, input, cause: error.why });
  if (victim.restarts >= MAX_RESTARTS)
    throw new Error(`${error.message}\n\n${crashReport(victim, part)}\n(and no more restarts: SIP_FUZZ_RESTARTS)`);
  victim.restarts++;
  await exited(victim.server.child);
  Object.assign(victim, await launch(victim));
}

function crashReport(victim: Victim, part?: string): string {
  const crashes = victim.crashes.filter((crash) => part === undefined || crash.part.startsWith(part));
  return `${crashes.length} input(s) ended the ${victim.name} server process (seed ${SEED}, SIP_FUZZ_SEED replays it):\n${crashes
    .map((crash) => `--- ${crash.part}: ${crash.input}\n${crash.cause}`)
    .join('\n')}`;
}

/** The server's last log lines but SIP.js's parser's (the fuzz makes very many of those). */
function lastLines(victim: Victim): string {
  const lines = outputOf(victim.server.child)
    .split('\n')
    .filter((line) => !line.includes('"sip.parser"'));
  return lines.slice(-12).join('\n').slice(-3000);
}

/** Fails with every crash of this part (all parts: none given), each with its input and the process's last words. */
export function noCrashes(victim: Victim, part?: string): void {
  const crashes = victim.crashes.filter((crash) => part === undefined || crash.part.startsWith(part));
  if (crashes.length > 0) throw new Error(crashReport(victim, part));
}

/** A port free for TCP and for UDP at once (SIP listens on both). */
async function freeSipPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    const socket = dgram.createSocket('udp4');
    const free = await new Promise<boolean>((resolve) => {
      socket.once('error', () => resolve(false));
      socket.bind(port, '127.0.0.1', () => resolve(true));
    });
    socket.close();
    if (free) return port;
  }
}

/** Rejects with ServerDied if the process ends before `work` is done, or with an Error past the bound. */
export async function whileAlive<T>(victim: Victim, work: Promise<T>, what: string, context = () => ''): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `${what}: no answer within ${WAIT_MS} ms (seed ${SEED})${context()}\nthe server's last lines:\n${lastLines(victim)}`,
          ),
        ),
      WAIT_MS,
    );
  });
  const died = victim.death.then((why) =>
    Promise.reject(
      new ServerDied(
        `${what}: the ${victim.name} server process ${why}${context()}\nseed ${SEED} (SIP_FUZZ_SEED)`,
        why,
      ),
    ),
  );
  try {
    return await Promise.race([work, bound, died]);
  } finally {
    clearTimeout(timer);
  }
}

export async function signIn(victim: Victim): Promise<string> {
  const login = await post(victim.server.base, '/user/api/login', {
    user_email: ADMIN.login,
    user_password: ADMIN.password,
  });
  expect(login.status).toBe(200);
  return login.body.user.authToken as string;
}
