/**
 * The reports bench's figures (run.ts), printed per database: the data seeded and how long it took, each
 * measure's time for 1 day (the baseline), 30 and 365 days with its ratio to the baseline, the whole report's
 * and whether it is under 1 s, the heap after each report, then the 30-day plans' use of indexes and the
 * whole plan of any query over 1 s.
 */
import type { Dialect } from '../../packages/server/src/db/dialect.ts';
import type { ExplainedQuery } from './plans.ts';
import type { Seeded } from './seed.ts';

type Measure = 'talk' | 'hours' | 'sos' | 'queue' | 'missed' | 'peaks';

export interface PeriodFigures {
  days: number;
  /** Each measure's median time (ms). */
  measures: Record<Measure, number>;
  /** The whole report's median time (ms). */
  report: number;
  /** The CPU time of this process for each (median), SQLite's work included, PostgreSQL's server not. */
  cpu: Record<Measure | 'report', number>;
  /** The measures ('report': the whole) timed by their warm-up alone, which took over 5 s. */
  once: string[];
  /** The queries of each measure's warm-up run: their time and plan. */
  queries: Record<Measure, ExplainedQuery[]>;
}

export interface HeapFigures {
  days: number;
  heapUsed: number;
  allocated: number;
  json: number;
}

export interface DatabaseFigures {
  dialect: Dialect;
  seeded: Seeded;
  seedSeconds: number;
  periods: PeriodFigures[];
  heap: HeapFigures[];
}

const GOAL_MS = 1000;
const ms = (value: number) => `${value < 10 ? value.toFixed(1) : value.toFixed(0)} ms`;
const mb = (value: number) => `${(value / 1024 / 1024).toFixed(1)} MB`;
const count = (value: number) => value.toLocaleString('en');

function printData(figures: DatabaseFigures) {
  const { rows, seconds } = figures.seeded;
  console.log(`\n=== ${figures.dialect} ===`);
  console.log(
    `data: ${Object.entries(rows)
      .map(([table, n]) => `${table} ${count(n)}`)
      .join(', ')}`,
  );
  console.log(
    `seeded in ${figures.seedSeconds.toFixed(1)} s (${Object.entries(seconds)
      .map(([part, s]) => `${part} ${s.toFixed(1)} s`)
      .join(', ')})`,
  );
}

function printTimes(periods: PeriodFigures[], dialect: Dialect) {
  const [base] = periods;
  const widths = [16, ...periods.map((_, i) => (i === 0 ? 12 : 20))];
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  const withRatio = (value: number, of: number, i: number, once: boolean) =>
    `${once ? '* ' : ''}${i === 0 ? ms(value) : `${ms(value)} (${(value / of).toFixed(1)}x)`}`;
  console.log(`\n${line(['measure (median of 5)', ...periods.map((p) => `${p.days} day${p.days > 1 ? 's' : ''}`)])}`);
  for (const measure of Object.keys(base.measures) as Measure[]) {
    const cells = periods.map((p, i) =>
      withRatio(p.measures[measure], base.measures[measure], i, p.once.includes(measure)),
    );
    console.log(line([measure, ...cells]));
  }
  const wholeCells = periods.map((p, i) => withRatio(p.report, base.report, i, p.once.includes('report')));
  console.log(line(['whole report', ...wholeCells]));
  console.log(
    line([
      'under 1 s',
      ...periods.map((p) => (p.report <= GOAL_MS ? 'yes' : `NO (${(p.report / 1000).toFixed(1)} s)`)),
    ]),
  );
  if (periods.some((p) => p.once.length > 0)) console.log('* one run: its warm-up took over 5 s');
  // The machine is shared: the CPU the work took tells what the wall clock would say on an idle machine.
  const where = dialect === 'sqlite' ? 'SQLite works in it' : "PostgreSQL's own CPU not counted";
  console.log(`CPU of this process (${where}):`);
  for (const p of periods) {
    const cells = (Object.entries(p.cpu) as Array<[string, number]>).map(([name, value]) => `${name} ${ms(value)}`);
    console.log(`  ${p.days} d: ${cells.join(', ')}`);
  }
}

function printHeap(heap: HeapFigures[]) {
  console.log(
    `heap used after a full collection, the report held: ${heap
      .map((h) => `${h.days} d ${mb(h.heapUsed)}`)
      .join(', ')}; allocated while computing it: ${heap.map((h) => `${h.days} d ${mb(h.allocated)}`).join(', ')}; ` +
      `the report's JSON: ${heap.map((h) => `${h.days} d ${(h.json / 1024).toFixed(1)} KB`).join(', ')}`,
  );
}

function printPlans(periods: PeriodFigures[]) {
  const month = periods.find((p) => p.days === 30) ?? periods[0];
  console.log(`\nplans of the ${month.days}-day report (lines that search or scan; each query's warm-up time):`);
  for (const [measure, queries] of Object.entries(month.queries)) {
    console.log(`  ${measure}:`);
    for (const query of queries) {
      console.log(`    ${ms(query.ms).padStart(8)}  ${query.head}`);
      for (const planLine of query.lines) console.log(`              ${planLine}`);
    }
  }
  for (const period of periods) {
    for (const [measure, queries] of Object.entries(period.queries)) {
      for (const query of queries.filter((q) => q.ms > GOAL_MS)) {
        console.log(`\nover 1 s: ${measure}, ${period.days} days, ${ms(query.ms)}: ${query.head}`);
        for (const planLine of query.plan) console.log(`    ${planLine}`);
      }
    }
  }
}

export function printDatabase(figures: DatabaseFigures): void {
  printData(figures);
  printTimes(figures.periods, figures.dialect);
  printHeap(figures.heap);
  printPlans(figures.periods);
}
