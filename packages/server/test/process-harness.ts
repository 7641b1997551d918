/** A real server process, started as `npm start` starts it (start.js), on a port of its own: start, crash, restart. */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../src/ops/node-flags.ts';

const START = path.resolve(import.meta.dirname, '../start.js');

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  port: number;
}

/** Starts the server and waits until /health answers (a port just freed by a stopped process is retried). */
export async function startServer(
  env: Record<string, string>,
  port?: number,
  nodeArgs: string[] = [],
): Promise<ServerProcess> {
  const chosen = port ?? (await freePort());
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, START], {
    env: { ...process.env, PORT: String(chosen), WEB_DIR: '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  outputs.set(child, () => output);
  const base = `http://127.0.0.1:${chosen}`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`${base}/health`)).ok) return { child, base, port: chosen };
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start:\n${output}`);
}

const outputs = new WeakMap<ChildProcess, () => string>();

/** What the process printed so far (stdout and stderr). */
export function outputOf(child: ChildProcess): string {
  return outputs.get(child)?.() ?? '';
}

export function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** Stops the process with this signal and waits for it to be gone. */
export async function stopServer(server: ServerProcess, signal: 'SIGTERM' | 'SIGKILL') {
  const gone = exited(server.child);
  server.child.kill(signal);
  return gone;
}

export async function post(base: string, url: string, body: object, token?: string) {
  const response = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
