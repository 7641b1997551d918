/**
 * Starting and stopping a server process for the benchmarks that measure Talkgroup against a bare
 * Socket.IO server: a free port, the process, waiting for it to answer (bench/rejoin, bench/floor-grant), or a
 * script that prints one line once it serves (bench/realtime/server.ts and the bare servers: bench/realtime,
 * bench/join-storm, bench/chat-throughput). Every server runs with the server's own node flags
 * (ops/node-flags.ts), so that what is measured is what `npm start` runs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { SERVER_NODE_FLAGS } from '../packages/server/src/ops/node-flags.ts';

/** The server as `npm start` starts it. */
export const START = path.resolve(import.meta.dirname, '../packages/server/start.js');

/** What a socket benchmark's server prints once it serves: its port, its room, a token per client, its pid. */
export interface SocketServerInfo {
  port: number;
  room: string;
  channelId: number;
  tokens: string[];
  /** The process that serves, when it is not the script itself (Talkgroup runs under a launcher). */
  pid?: number;
}

/** Runs `script args` and resolves with the line it prints once it serves; `pid` is the serving process. */
export function startSocketServer(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ info: SocketServerInfo & { pid: number }; child: ChildProcess }> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  });
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      buffered += chunk;
      const end = buffered.indexOf('\n');
      if (end < 0) return;
      const info = JSON.parse(buffered.slice(0, end)) as SocketServerInfo;
      resolve({ info: { ...info, pid: info.pid ?? (child.pid as number) }, child });
    });
    child.once('exit', (code) => reject(new Error(`${path.basename(script)} exited (${code}) before it served`)));
  });
}

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
  const args = [...SERVER_NODE_FLAGS, ...(options.bare ? [options.bare, String(port)] : [START])];
  return spawn(process.execPath, args, {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIR: '',
      LOG_LEVEL: 'warn',
      // Every simulated client connects from 127.0.0.1: the per-address flood limit must not refuse them.
      CONNECTION_RATE_PER_MINUTE: '1000000',
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

/** A port free for both SIP transports, UDP and TCP (bench:gateway, bench:isolation). */
export async function freeSipPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    const socket = createSocket('udp4');
    const free = await new Promise<boolean>((resolve) => {
      socket.once('error', () => resolve(false));
      socket.bind(port, '127.0.0.1', () => resolve(true));
    });
    socket.close();
    if (free) return port;
  }
}
