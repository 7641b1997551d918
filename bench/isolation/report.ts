/**
 * bench:isolation's table: per state, the loop's delay, the relay's largest gap, press to floor_taken, the floor's
 * p95 against idle on the same server, and the issue's goals read against those figures (never pass/fail: the
 * machine is shared, the load average is printed beside each window).
 */
import type { WindowStats } from './gateway-worker.ts';

export interface Row {
  scenario: string;
  dialect: 'sqlite' | 'postgres';
  loop: { p99: number; max: number };
  relay: WindowStats;
  windowMs: number;
  presses: number[];
  load: string;
  note: string;
}

/** Goals against idle (issue 57, item 7). */
const GOALS = { loopMaxMs: 50, relayGapMs: 60, floorRatio: 1.2 };

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

const DATABASE = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const ms = (value: number) => (value < 10 ? value.toFixed(1) : value.toFixed(0));
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

export function printTable(rows: Row[]): void {
  console.log(
    `\n${'state'.padEnd(24)} ${'server'.padEnd(10)} ${'loop p99'.padStart(8)} ${'loop max'.padStart(8)} ` +
      `${'relay gap'.padStart(9)} ${'packets'.padStart(9)} ${'floor p50'.padStart(9)} ${'floor p95'.padStart(9)} ` +
      `${'p95/idle'.padStart(8)}  goals`,
  );
  for (const row of rows) {
    const idle = rows.find((other) => other.dialect === row.dialect && other.scenario === 'idle');
    const p95 = percentile(row.presses, 95);
    const ratio = idle ? p95 / percentile(idle.presses, 95) : Number.NaN;
    const expected = Math.round(row.windowMs / 20);
    const goals: string[] = [];
    if (!row.scenario.startsWith('idle')) {
      if (row.scenario.startsWith('report')) {
        goals.push(`loop max ≤ ${GOALS.loopMaxMs} ms ${met(row.loop.max <= GOALS.loopMaxMs)}`);
        goals.push(`relay gap ≤ ${GOALS.relayGapMs} ms ${met(row.relay.maxGapMs <= GOALS.relayGapMs)}`);
      }
      goals.push(`floor ≤ ${GOALS.floorRatio}x ${met(ratio <= GOALS.floorRatio)}`);
    }
    console.log(
      `${row.scenario.padEnd(24)} ${DATABASE[row.dialect].padEnd(10)} ${`${ms(row.loop.p99)} ms`.padStart(8)} ` +
        `${`${ms(row.loop.max)} ms`.padStart(8)} ${`${ms(row.relay.maxGapMs)} ms`.padStart(9)} ` +
        `${`${row.relay.packets}/${expected}`.padStart(9)} ${`${ms(percentile(row.presses, 50))} ms`.padStart(9)} ` +
        `${`${ms(p95)} ms`.padStart(9)} ${`${ratio.toFixed(2)}x`.padStart(8)}  ${goals.join(', ') || (row.scenario === 'idle' ? '(baseline)' : '(idle again: the noise)')}`,
    );
  }
  console.log(
    "\n(loop: the server's event-loop delay from /metrics, less its 10 ms sampling; relay gap: the largest gap " +
      'between the packets the relay sent the measured gateway, packets received of those due at 50 a second; ' +
      "floor: press to floor_taken at the other member, over the window's presses; p95/idle: against idle on " +
      'the same server)',
  );
  for (const row of rows) console.log(`- ${row.scenario}, ${DATABASE[row.dialect]} (load ${row.load}): ${row.note}`);
}
