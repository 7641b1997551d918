/**
 * The users page bench's figures (run.ts), printed: one column per size with its ratio to the baseline, the
 * page's scripts, and the import previews.
 */
import { loadavg } from 'node:os';
import { USERS_PAGED_ABOVE } from '@talkgroup/protocol';

export interface ScriptBytes {
  /** The entry script (assets/index-*.js): its size, what was sent for it (br/gzip), and on a later visit. */
  entry: { decoded: number; sent: number; sentAgain: number };
  /** Every script of the page together. */
  all: { decoded: number; sent: number; sentAgain: number };
}

export interface Figures {
  users: number;
  apiMs: number;
  apiBytes: number;
  firstRowsMs: number;
  filter: { median: number; max: number; longest: number };
  sortMs: number;
  scripts: ScriptBytes;
}

/** One import preview: the rows of the file, the time to its preview table, the longest main-thread task. */
export interface ImportFigures {
  rows: number;
  ms: number;
  longest: number;
}

/** Prints the run's figures: `base` the baseline's (its users the baseline size), `sizes` the sizes asked. */
export function printReport(base: Figures, sizes: Figures[], imports: ImportFigures[]): void {
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const kb = (value: number) => `${(value / 1024).toFixed(0)} KB`;
  const withRatio = (value: string, a: number, b: number) => (a > 0 ? `${value} (${(b / a).toFixed(1)}x)` : value);
  const figures: Array<[string, (f: Figures) => number, (value: number) => string]> = [
    ['list call (server, median of 5)', (f) => f.apiMs, ms],
    ['list call JSON size', (f) => f.apiBytes, kb],
    ['first rows shown (median of 5 loads)', (f) => f.firstRowsMs, ms],
    ['filter keystroke -> painted (median)', (f) => f.filter.median, ms],
    ['filter keystroke -> painted (worst)', (f) => f.filter.max, ms],
    ['longest main-thread task while filtering', (f) => f.filter.longest, ms],
    ['sort click -> painted (median of 3)', (f) => f.sortMs, ms],
  ];
  const widths = [42, 12, ...sizes.map(() => 22)];
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log();
  console.log(
    line([
      'measure (ratio to the baseline)',
      `${base.users} users`,
      ...sizes.map((f) => `${f.users} users${f.users > USERS_PAGED_ABOVE ? ' (paged)' : ''}`),
    ]),
  );
  for (const [name, of, format] of figures) {
    console.log(line([name, format(of(base)), ...sizes.map((f) => withRatio(format(of(f)), of(base), of(f)))]));
  }
  console.log();
  for (const [name, sum] of [
    ['entry script', base.scripts.entry],
    ["the page's scripts together", base.scripts.all],
  ] as const) {
    console.log(
      `${name}: ${kb(sum.decoded)}, ${kb(sum.sent)} sent on a first visit (precompressed), ` +
        `${kb(sum.sentAgain)} on the next (hashed names, cached for good)`,
    );
  }
  for (const { rows, ms: time, longest } of imports) {
    console.log(`import preview of ${rows} rows: ${ms(time)}, longest main-thread task ${ms(longest)}`);
  }
  console.log('Goals (issue 18): first rows within 1 s at 100,000 users; a filter keystroke within 50 ms at 10,000.');
  console.log(`load average at the end ${loadavg()[0].toFixed(1)} (figures move with the machine's load)`);
}
