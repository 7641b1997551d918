/**
 * The position report path with and without geofences (issue 28): a member's phone reports positions
 * (onLocationChanged) and waits for each acknowledgement, which the server sends once the position is kept,
 * pushed and checked against every fence that watches the member. Measured on one server: first with no fence,
 * then with FENCES fences on the member's channel (circles and polygons) and a few that watch everyone, on the
 * same walk (it crosses some of them, so some reports alert). Figures only, never pass/fail.
 *
 *   npm run bench:geofences        BENCH_REPORTS=400, BENCH_FENCES=60 by default
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { answering, freePort, spawnServer, stop } from '../server-process.ts';

const REPORTS = Number(process.env.BENCH_REPORTS ?? 400);
const FENCES = Number(process.env.BENCH_FENCES ?? 60);
const ADMIN = { login: 'bench@example.org', password: 'bench-geofence-password-1' };
/** Each socket may send 10 reports at once (the server's limit per socket): a new one after 9. */
const PER_SOCKET = 9;
const CENTRE = { lat: 45.764, lng: 4.8357 };

async function call(port: number, url: string, body: object, token?: string) {
  const response = await fetch(`http://127.0.0.1:${port}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'x-access-token': token } : {}) },
    body: JSON.stringify(body),
  });
  return response.json();
}

function connect(port: number, token: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(`http://127.0.0.1:${port}`, { query: { token }, transports: ['websocket'], forceNew: true });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** A walk back and forth across the area where the fences are: the i-th report. */
function walk(i: number): { lat: number; lng: number; accuracy: number } {
  const phase = (i % 80) / 80;
  const there = phase < 0.5 ? phase * 2 : 2 - phase * 2;
  return { lat: CENTRE.lat + (there - 0.5) * 0.02, lng: CENTRE.lng + Math.sin(i / 7) * 0.002, accuracy: 8 };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function reportLatencies(port: number, token: string): Promise<number[]> {
  const latencies: number[] = [];
  let socket: Socket | undefined;
  for (let i = 0; i < REPORTS + 20; i += 1) {
    if (i % PER_SOCKET === 0) {
      socket?.disconnect();
      socket = await connect(port, token);
    }
    const sent = performance.now();
    const ack = await (socket as Socket).timeout(10_000).emitWithAck('onLocationChanged', walk(i));
    if (!ack.success) throw new Error(`report refused: ${ack.result}`);
    // The first reports warm the server up (JIT, caches): not counted.
    if (i >= 20) latencies.push(performance.now() - sent);
  }
  socket?.disconnect();
  return latencies.sort((a, b) => a - b);
}

async function drawFences(port: number, admin: string, channelId: number): Promise<void> {
  for (let i = 0; i < FENCES; i += 1) {
    const lat = CENTRE.lat - 0.01 + (0.02 * i) / FENCES;
    const lng = CENTRE.lng + ((i % 5) - 2) * 0.001;
    const shape =
      i % 2 === 0
        ? { type: 'circle', lat, lng, radiusM: 60 + (i % 7) * 20 }
        : {
            type: 'polygon',
            points: [
              [lat - 0.0005, lng - 0.0008],
              [lat + 0.0005, lng - 0.0008],
              [lat + 0.0006, lng + 0.0004],
              [lat, lng + 0.0009],
              [lat - 0.0006, lng + 0.0004],
            ],
          };
    const everyone = i % 20 === 0;
    const answer = await call(
      port,
      '/user/api/createGeofence',
      { name: `Zone ${i}`, ...(everyone ? {} : { channelId }), shape },
      admin,
    );
    if (!answer.success) throw new Error(`fence refused: ${answer.result}`);
  }
}

const port = await freePort();
const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-geofences-'));
const child = spawnServer(port, dataDir, { admin: ADMIN });
try {
  await answering(port);
  const admin = (await call(port, '/user/api/login', { user_email: ADMIN.login, user_password: ADMIN.password })).user
    .authToken;
  const channel = (await call(port, '/user/api/createChannel', { channelName: 'Geofence Bench' }, admin)).res;
  const member = { email: 'walker@example.org', password: 'walker-password-1' };
  const created = await call(
    port,
    '/user/api/signUpUser',
    { firstName: 'Walker', lastName: 'Bench', ...member },
    admin,
  );
  await call(port, '/user/api/addUserToChannel', { userId: created.user.id, channelId: channel.id }, admin);
  const token = (await call(port, '/user/api/login', { user_email: member.email, user_password: member.password })).user
    .authToken;

  const without = await reportLatencies(port, token);
  await drawFences(port, admin, channel.id);
  const console_ = await connect(port, admin);
  let alerts = 0;
  console_.on('geofenceAlert', () => {
    alerts += 1;
  });
  const withFences = await reportLatencies(port, token);
  console_.disconnect();

  const row = (name: string, values: number[]) =>
    `${name.padEnd(22)} p50 ${percentile(values, 50).toFixed(2).padStart(7)} ms   p95 ${percentile(values, 95)
      .toFixed(2)
      .padStart(7)} ms   p99 ${percentile(values, 99).toFixed(2).padStart(7)} ms`;
  console.log(`Position report to acknowledgement, ${REPORTS} reports each (SQLite):`);
  console.log(row('no fence', without));
  console.log(row(`${FENCES} fences`, withFences));
  console.log(
    `ratio (fences / none)  p50 ${(percentile(withFences, 50) / percentile(without, 50)).toFixed(2)}   p95 ${(
      percentile(withFences, 95) / percentile(without, 95)
    ).toFixed(2)}   alerts during the walk: ${alerts}`,
  );
} finally {
  await stop(child);
  rmSync(dataDir, { recursive: true, force: true });
}
