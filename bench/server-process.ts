/**
 * Starting and stopping a server process for the benchmarks that measure Talkgroup against a bare
 * Socket.IO server (bench/rejoin, bench/floor-grant): a free port, the process, waiting for it to answer.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

export const MAIN = path.resolve(import.meta.dirname, '../packages/server/src/main.ts');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Talkgroup (`bare` absent) or a bare server script (given the port as its argument) on `port`. */
export function spawnServer(
  port: number,
  dataDir: string,
  options: { bare?: string; admin: { login: string; password: string } },
): ChildProcess {
  const args = options.bare ? [options.bare, String(port)] : [MAIN];
  return spawn(process.execPath, args, {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIR: '',
      LOG_LEVEL: 'warn',
      ADMIN_LOGIN: options.admin.login,
      ADMIN_PASSWORD: options.admin.password,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Polls until the server answers HTTP (every 10 ms, for 30 s at most); returns the time it first did. */
export async function answering(port: number): Promise<number> {
  for (let i = 0; i < 3000; i += 1) {
    try {
      await fetch(`http://127.0.0.1:${port}/healthz`);
      return performance.now();
    } catch {
      await sleep(10);
    }
  }
  throw new Error('the server did not answer within 30 s');
}

export async function stop(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await gone;
}
