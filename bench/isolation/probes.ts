/**
 * bench:isolation's three probes, each read over a window:
 *
 * - the server's event-loop delay, from its /metrics (prom-client's `monitorEventLoopDelay` histogram, which each
 *   scrape reads and resets: a scrape opens the window, the next one closes it), less the histogram's 10 ms
 *   sampling period, so that an idle loop reads about 0;
 * - press to `floor_taken`: a member presses (`floor_request`) and releases, at a person's pace, in a channel
 *   with floor control, and a second member's socket notes when `floor_taken` arrives;
 * - the measured gateway call's largest gap between the relay's packets (gateway-worker.ts, in a thread of its own).
 */
import { Worker } from 'node:worker_threads';
import { io, type Socket } from 'socket.io-client';
import { sleep } from '../server-process.ts';
import type { GatewayWorkerData, WindowStats } from './gateway-worker.ts';

/** prom-client's `monitorEventLoopDelay` resolution (its default): every sample includes it. */
const SAMPLING_MS = 10;
export const epochNow = () => performance.timeOrigin + performance.now();

export function callsTo(port: number) {
  return async function call(pathName: string, body: object, token?: string): Promise<any> {
    const response = await fetch(`http://127.0.0.1:${port}${pathName}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as any;
    if (response.status !== 200)
      throw new Error(`${pathName}: ${response.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
}

export type Call = ReturnType<typeof callsTo>;

export async function signIn(call: Call, login: string, password: string): Promise<string> {
  return (await call('/user/api/login', { user_email: login, user_password: password })).user.authToken;
}

/** The event-loop delay figures of /metrics, in ms (the sampling period taken off); reading them resets them. */
export async function loopDelay(port: number, token: string): Promise<{ p99: number; max: number }> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  const value = (name: string) => {
    const line = new RegExp(`^talkgroup_nodejs_eventloop_lag_${name}_seconds (\\S+)$`, 'm').exec(text);
    if (!line) throw new Error(`/metrics has no talkgroup_nodejs_eventloop_lag_${name}_seconds`);
    return Math.max(0, Number(line[1]) * 1000 - SAMPLING_MS);
  };
  return { p99: value('p99'), max: value('max') };
}

function joined(port: number, token: string, room: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(`http://127.0.0.1:${port}`, { query: { token }, transports: ['websocket'], forceNew: true });
    const timer = setTimeout(() => reject(new Error('the floor probe did not join its room in 15 s')), 15_000);
    socket.on('connect', () => socket.emit('join_room', { room }));
    socket.once('all_users', () => {
      clearTimeout(timer);
      resolve(socket);
    });
  });
}

/** A press past this is counted at this (and said): the floor did not answer. */
const PRESS_LIMIT_MS = 10_000;

/** Two members' sockets in one channel room: a talker that presses and releases, a listener that sees it. */
export async function floorProbe(port: number, tokens: [string, string], room: string) {
  const talker = await joined(port, tokens[0], room);
  const listener = await joined(port, tokens[1], room);

  async function press(): Promise<number> {
    const taken = new Promise<number>((resolve) => {
      const timer = setTimeout(() => resolve(Number.NaN), PRESS_LIMIT_MS);
      listener.once('floor_taken', () => {
        clearTimeout(timer);
        resolve(performance.now());
      });
    });
    const idle = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, PRESS_LIMIT_MS);
      listener.once('floor_idle', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    const pressed = performance.now();
    const answer = await talker
      .timeout(PRESS_LIMIT_MS)
      .emitWithAck('floor_request', { room })
      .catch(() => undefined);
    const seen = await taken;
    if (!answer?.granted) throw new Error(`a press was refused: ${JSON.stringify(answer)}`);
    talker.emit('floor_release', { room });
    await idle;
    return Number.isNaN(seen) ? PRESS_LIMIT_MS : seen - pressed;
  }

  let running: Promise<number[]> | undefined;
  let stopping = false;
  return {
    /** Presses until stop(), a few a second (the server limits each socket's events to 10 a second). */
    start() {
      stopping = false;
      running = (async () => {
        const times: number[] = [];
        while (!stopping) {
          const started = performance.now();
          times.push(await press());
          await sleep(Math.max(0, 130 - (performance.now() - started)));
        }
        return times;
      })();
    },
    async stop(): Promise<number[]> {
      stopping = true;
      return (await running) ?? [];
    },
    /** A few presses not counted: the process warms up (JIT, caches). */
    async warmUp(presses = 20) {
      for (let i = 0; i < presses; i++) {
        await press();
        await sleep(130);
      }
    },
    close() {
      talker.disconnect();
      listener.disconnect();
    },
  };
}

export type FloorProbe = Awaited<ReturnType<typeof floorProbe>>;

/** The measured gateway's call, in its worker thread; resolves once the call is up. */
export async function gatewayProbe(data: GatewayWorkerData) {
  const worker = new Worker(new URL('./gateway-worker.ts', import.meta.url), { workerData: data });
  let ended: string | undefined;
  const asked = new Map<number, (stats: WindowStats) => void>();
  let next = 0;
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (message: { ready?: true; failed?: string; ended?: string; id?: number; stats?: any }) => {
      if (message.ready) resolve();
      if (message.failed) reject(new Error(`the measured gateway's call failed: ${message.failed}`));
      if (message.ended) ended = message.ended;
      if (message.id !== undefined) asked.get(message.id)?.(message.stats);
    });
    worker.once('error', reject);
  });
  return {
    /** The relay's packets between these instants (epoch ms). */
    stats(from: number, to: number): Promise<WindowStats> {
      const id = next++;
      return new Promise((resolve) => {
        asked.set(id, resolve);
        worker.postMessage({ id, stats: [from, to] });
      });
    },
    ended: () => ended,
    async close() {
      worker.postMessage({ hangUp: true });
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}

export type GatewayProbe = Awaited<ReturnType<typeof gatewayProbe>>;
