/**
 * Runs every benchmark one after the other. Each prints its figures next to a baseline measured in the
 * same run; none passes or fails (the machines are shared and noisy). `npm run bench:<name>` runs one.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const BENCHES = [
  'realtime',
  'activities',
  'reports',
  'users-page',
  'ptt-latency',
  'rejoin',
  'floor-grant',
  'join-storm',
  'lists',
  'chat-throughput',
  'geofences',
  'media',
  'mcptt',
  'gateway',
];

for (const name of BENCHES) {
  console.log(`\n=== bench/${name} ===`);
  const result = spawnSync(process.execPath, [path.join(import.meta.dirname, name, 'run.ts')], { stdio: 'inherit' });
  if (result.status !== 0) console.log(`bench/${name} stopped with status ${result.status}`);
}
