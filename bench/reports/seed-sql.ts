/**
 * The SQL the reports bench's seeding is written with (seed.ts): a series of row numbers, instants, and hashes
 * of the row number that draw each row's attributes (the same on every run and on both databases).
 */
import { type RawBuilder, sql } from 'kysely';
import type { Dialect } from '../../packages/server/src/db/dialect.ts';

export const DAY_MS = 86_400_000;

/** People of the seed, by rank: user u is `userBase + u`, channel c is `channelBase + c`. */
export interface Bases {
  userBase: number;
  channelBase: number;
}

/** Odd multipliers (Knuth's and xxHash's primes): hash k of row i is (i × MULT[k]) mod 2^32. */
export const MULT = [2654435761, 2246822519, 3266489917, 668265263, 374761393, 3432918353, 461845907, 1540483477];

/** What SQLite and PostgreSQL write differently: the series of row numbers and instants. */
export function dialectSql(dialect: Dialect) {
  const pg = dialect === 'postgres';
  return {
    /** Rows `s.i` = lo … hi. */
    series: (lo: number, hi: number) =>
      pg
        ? sql`generate_series(${sql.lit(lo)}::bigint, ${sql.lit(hi)}::bigint) as s(i)`
        : sql`(with recursive r(i) as (select ${sql.lit(lo)} union all select i + 1 from r where i < ${sql.lit(hi)})
               select i from r) as s`,
    /** The instant `ms` milliseconds after the epoch, as the column stores it. */
    instant: (ms: RawBuilder<unknown>) =>
      pg
        ? sql`to_timestamp((${ms})::float8 / 1000)`
        : sql`strftime('%Y-%m-%dT%H:%M:%fZ', (${ms}) / 1000.0, 'unixepoch')`,
    /** A stored instant plus `ms` milliseconds. */
    plus: (column: RawBuilder<unknown>, ms: RawBuilder<unknown>) =>
      pg
        ? sql`${column} + (${ms}) * interval '1 millisecond'`
        : sql`strftime('%Y-%m-%dT%H:%M:%fZ', unixepoch(${column}, 'subsec') + (${ms}) / 1000.0, 'unixepoch')`,
    /** Milliseconds from one stored instant to another. */
    between: (from: RawBuilder<unknown>, to: RawBuilder<unknown>) =>
      pg
        ? sql`cast(extract(epoch from (${to} - ${from})) * 1000 as integer)`
        : sql`cast(round((julianday(${to}) - julianday(${from})) * 86400000) as integer)`,
  };
}

/** Hash k of the series' row: an integer in [0, 2^32). */
export const h = (k: number) => sql`((s.i * ${sql.lit(MULT[k])}) % 4294967296)`;
export const lit = (value: number) => sql.lit(value);

/** Runs `step` over [1, total] in chunks, one statement each, and returns the seconds it took. */
export async function chunked(total: number, size: number, step: (lo: number, hi: number) => Promise<unknown>) {
  const started = performance.now();
  for (let lo = 1; lo <= total; lo += size) await step(lo, Math.min(total, lo + size - 1));
  return (performance.now() - started) / 1000;
}
