/**
 * The SQL a report runs, and how the database means to run it (run.ts). A Kysely plugin on the store's database
 * handle sees every query it runs (its operation tree and how long it took); the tree is compiled again on the
 * plain handle into its SQL and parameters, then explained: SQLite's EXPLAIN QUERY PLAN, PostgreSQL's
 * EXPLAIN (FORMAT TEXT). What is printed is the plan's use of indexes: the lines that search or scan a table.
 */
import { CompiledQuery, type KyselyPlugin, type RootOperationNode } from 'kysely';
import type { Dialect } from '../../packages/server/src/db/dialect.ts';
import type { Db } from '../../packages/server/src/db/schema.ts';

export interface CapturedQuery {
  node: RootOperationNode;
  queryId: string;
  startedAt: number;
  ms: number;
}

/** A plugin that records the queries run while `start` … `stop` brackets them. */
export function queryCapture() {
  let captured: CapturedQuery[] | null = null;
  const running = new Map<string, CapturedQuery>();
  const plugin: KyselyPlugin = {
    transformQuery({ node, queryId }) {
      if (captured) {
        const query = { node, queryId: queryId.queryId, startedAt: performance.now(), ms: Number.NaN };
        captured.push(query);
        running.set(query.queryId, query);
      }
      return node;
    },
    async transformResult({ queryId, result }) {
      const query = running.get(queryId.queryId);
      if (query) {
        query.ms = performance.now() - query.startedAt;
        running.delete(queryId.queryId);
      }
      return result;
    },
  };
  return {
    plugin,
    start() {
      captured = [];
    },
    /** The queries run: a subquery is seen too when its builder is built into its query, but never answers. */
    stop(): CapturedQuery[] {
      const queries = (captured ?? []).filter((query) => !Number.isNaN(query.ms));
      captured = null;
      running.clear();
      return queries;
    },
  };
}

export interface ExplainedQuery {
  /** The statement's first words, to tell the queries of one measure apart. */
  head: string;
  ms: number;
  /** The plan's lines that search or scan a table (or an index). */
  lines: string[];
  /** The whole plan, kept for a query that is slow. */
  plan: string[];
}

const SQLITE_ACCESS = /\b(SCAN|SEARCH)\b/;
const PG_ACCESS = /(Index|Seq Scan|Bitmap)/;

/** The statement in short: the tables it reads, so that a plan can be told to its query. */
function headOf(text: string): string {
  const tables = [...new Set([...text.matchAll(/\b(?:from|join)\s+"?([a-z_]+)"?/gi)].map((match) => match[1]))];
  return `${text.replace(/\s+/g, ' ').slice(0, 60)}… [${tables.join(', ')}]`;
}

/** Compiles each captured query on the plain handle `db` and explains it. */
export async function explain(db: Db, dialect: Dialect, queries: CapturedQuery[]): Promise<ExplainedQuery[]> {
  const explained: ExplainedQuery[] = [];
  for (const query of queries) {
    const compiled = db.getExecutor().compileQuery(query.node, { queryId: query.queryId });
    const prefix = dialect === 'postgres' ? 'explain (format text) ' : 'explain query plan ';
    const result = await db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(prefix + compiled.sql, [...compiled.parameters]),
    );
    const plan =
      dialect === 'postgres'
        ? result.rows.map((row) => String(row['QUERY PLAN']))
        : result.rows.map((row) => String(row.detail));
    const access = dialect === 'postgres' ? PG_ACCESS : SQLITE_ACCESS;
    explained.push({
      head: headOf(compiled.sql),
      ms: query.ms,
      lines: plan.filter((line) => access.test(line)).map((line) => line.trim()),
      plan,
    });
  }
  return explained;
}
