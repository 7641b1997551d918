/**
 * The press-to-sound bench's figures (run.ts), printed: per room and per bare pair, p50 / p95 / min / max of
 * each delay, the ratio to the bare pair, and the app's p95 against 3GPP MCPTT KPI 3.
 */
import type { RoomFigures } from './room-pair.ts';

const MCPTT_KPI3_MS = 300;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
}
const p50 = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** What one bare pair's presses gave, in ms from the press. */
export interface BareFigures {
  sound: number[];
  polled: number[];
  rtp: number[];
  missed: number;
  jitterBufferMs: number[];
}

/** Prints the figures of a run: `rooms` and `bare` by name, `loads` the 1-minute load average along it. */
export function printReport(
  rooms: Record<string, { figures: RoomFigures }>,
  bare: Record<string, BareFigures>,
  loads: number[],
): void {
  const row = (name: string, values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const format = (value: number) => `${value.toFixed(1).padStart(7)} ms`;
    console.log(
      `${name.padEnd(40)} n=${String(sorted.length).padStart(3)}  p50 ${format(percentile(sorted, 50))}  p95 ${format(
        percentile(sorted, 95),
      )}  min ${format(sorted[0] ?? Number.NaN)}  max ${format(sorted[sorted.length - 1] ?? Number.NaN)}`,
    );
  };
  const buffers = (values: number[]) =>
    values.length ? `listener's jitter buffer, mean per round: ${values.map((v) => v.toFixed(0)).join(', ')} ms` : '';
  console.log('Push-to-talk latency, two headless Chromium pages on one machine (loopback network)');
  console.log(`load average (1 min) during the run: ${loads.map((load) => load.toFixed(1)).join(' → ')}`);
  const floor = p50(bare.bare.sound);
  const polledFloor = p50(bare.bare.polled);
  for (const [name, figures] of Object.entries(rooms).map(([name, room]) => [name, room.figures] as const)) {
    console.log();
    row(`${name}: press -> sound at listener`, figures.sound);
    row('  seen by a 2 ms poll of the level', figures.polled);
    row('  of which press -> track enabled', figures.enabled);
    row('  of which press -> RTP level', figures.rtp);
    row(`${name}: press -> talking indicator drawn`, figures.indicator);
    row('  of which press -> talking in the room', figures.talking);
    row('  of which press -> tile updated', figures.updated);
    console.log(`  ${buffers(figures.jitterBufferMs)}`);
    if (figures.missed > 0) console.log(`  ${figures.missed} press(es) not heard within 3 s (left out of the figures)`);
    console.log(
      `  ratio p50 press -> sound, ${name} / bare pair: ${(p50(figures.sound) / floor).toFixed(2)} (goal ≤ 1.2); ` +
        `as polled: ${(p50(figures.polled) / polledFloor).toFixed(2)}`,
    );
  }
  console.log();
  for (const [name, figures] of Object.entries(bare)) {
    row(`${name}: enable -> sound`, figures.sound);
    row('  seen by a 1 ms poll of the level', figures.polled);
    // After replaceTrack(null) no packet comes, so the receiver keeps reporting the last level it had.
    if (name !== 'bare, replaceTrack') row('  of which enable -> RTP level', figures.rtp);
    console.log(`  ${buffers(figures.jitterBufferMs)}`);
    if (figures.missed > 0) console.log(`  ${figures.missed} press(es) not heard within 3 s (left out of the figures)`);
    if (name !== 'bare') console.log(`  ratio p50, ${name} / bare pair: ${(p50(figures.sound) / floor).toFixed(2)}`);
  }
  console.log();
  console.log(`${'3GPP MCPTT KPI 3 (mouth-to-ear)'.padEnd(40)} ≤ ${MCPTT_KPI3_MS} ms for 95% of talk bursts`);
  if (rooms.app) {
    const p95 = percentile(
      [...rooms.app.figures.sound].sort((a, b) => a - b),
      95,
    );
    console.log(`p95 press -> sound (app) is ${(p95 / MCPTT_KPI3_MS).toFixed(2)} × the KPI 3 budget`);
  }
  console.log(
    'Not included: the time from the finger to the pointer event, the sound card output buffer, and any real network.',
  );
}
