/**
 * Press to grant (issue 14): a member in a channel room presses (floor_request) and releases (floor_release),
 * again and again, while a second member listens. Per press: the time to the grant (the acknowledgement, at
 * the talker) and to the others' "who is talking" (floor_taken, at the listener). A bare Socket.IO server
 * that grants at once gives the floor of the transport, measured in the same run. Figures only, never
 * pass/fail. Presses are paced like a person's (a few a second), under the server's event limits.
 *
 *   npm run bench:floor        BENCH_PRESSES=300 by default
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { answering, freePort, sleep, spawnServer, stop } from '../server-process.ts';

const PRESSES = Number(process.env.BENCH_PRESSES ?? 300);
const BARE = path.join(import.meta.dirname, 'bare-server.ts');
const ADMIN = { login: 'bench@example.org', password: 'bench-floor-password-1' };
type Kind = 'talkgroup' | 'bare';

async function call(port: number, url: string, body: object, token?: string) {
  const response = await fetch(`http://127.0.0.1:${port}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) },
    body: JSON.stringify(body),
  });
  return response.json();
}

/** Two members in one channel room (the bare server: two sockets in one room). */
async function setUp(kind: Kind, port: number): Promise<{ tokens: [string, string]; room: string }> {
  if (kind === 'bare') return { tokens: ['any', 'any'], room: 'Bench' };
  const admin = (await call(port, '/user/api/login', { user_email: ADMIN.login, user_password: ADMIN.password })).user
    .authToken;
  const channel = (await call(port, '/user/api/createChannel', { channelName: 'Floor Bench' }, admin)).res;
  const tokens: string[] = [];
  for (const name of ['talker', 'listener']) {
    const email = `${name}@example.org`;
    const password = `${name}-password-1`;
    const created = await call(
      port,
      '/user/api/signUpUser',
      { firstName: name, lastName: 'Bench', email, password },
      admin,
    );
    await call(port, '/user/api/addUserToChannel', { userId: created.user.id, channelId: channel.id }, admin);
    tokens.push((await call(port, '/user/api/login', { user_email: email, user_password: password })).user.authToken);
  }
  return { tokens: tokens as [string, string], room: channel.rtcSession };
}

function joined(kind: Kind, port: number, token: string, room: string): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = io(`http://127.0.0.1:${port}`, { query: { token }, transports: ['websocket'], forceNew: true });
    socket.on('connect', () => socket.emit('join_room', { room }));
    socket.once('all_users', () => resolve(socket));
    socket.on('error', (error) => console.error(`${kind}:`, error));
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function measure(kind: Kind): Promise<{ grant: number[]; shown: number[] }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-floor-'));
  const child = spawnServer(port, dataDir, { bare: kind === 'bare' ? BARE : undefined, admin: ADMIN });
  try {
    await answering(port);
    const { tokens, room } = await setUp(kind, port);
    const talker = await joined(kind, port, tokens[0], room);
    const listener = await joined(kind, port, tokens[1], room);
    const grant: number[] = [];
    const shown: number[] = [];
    for (let i = 0; i < PRESSES + 20; i += 1) {
      const taken = new Promise<number>((resolve) => listener.once('floor_taken', () => resolve(performance.now())));
      const idle = new Promise<void>((resolve) => listener.once('floor_idle', () => resolve()));
      const pressed = performance.now();
      const answer = await talker.timeout(10_000).emitWithAck('floor_request', { room });
      const granted = performance.now();
      const seen = await taken;
      if (!answer?.granted) throw new Error(`${kind}: a press was refused: ${JSON.stringify(answer)}`);
      // The first presses warm the process up (JIT, caches): not counted.
      if (i >= 20) {
        grant.push(granted - pressed);
        shown.push(seen - pressed);
      }
      talker.emit('floor_release', { room });
      await idle;
      // A person presses a few times a second at most; the server limits each socket's events (10 a second).
      await sleep(Math.max(0, 130 - (performance.now() - pressed)));
    }
    talker.disconnect();
    listener.disconnect();
    return { grant: grant.sort((a, b) => a - b), shown: shown.sort((a, b) => a - b) };
  } finally {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const bare = await measure('bare');
const talkgroup = await measure('talkgroup');
console.log(
  `${PRESSES} presses in one channel room (two members); press to grant at the talker, press to floor_taken at the listener`,
);
console.log('figure           server       p50 ms   p95 ms   max ms');
for (const [figure, key] of [
  ['press to grant', 'grant'],
  ['press to shown', 'shown'],
] as const) {
  for (const [name, figures] of [
    ['bare', bare[key]],
    ['talkgroup', talkgroup[key]],
  ] as const) {
    const cells = [50, 95, 100].map((p) => percentile(figures, p).toFixed(2).padStart(8));
    console.log(`${figure.padEnd(16)} ${name.padEnd(10)} ${cells.join(' ')}`);
  }
  for (const p of [50, 95]) {
    const ratio = percentile(talkgroup[key], p) / Math.max(0.01, percentile(bare[key], p));
    console.log(`${figure.padEnd(16)} ratio p${p} talkgroup/bare: ${ratio.toFixed(2)}`);
  }
}
