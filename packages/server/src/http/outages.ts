/**
 * Failures that are nobody's input and no bug: the database away (restarting, failing over, its connections
 * killed, or too slow to answer in time) and a full disk. Requests answer 503 and 507 with a clear sentence
 * (http/errors.ts), socket acknowledgements the same sentence (realtime/socket-tasks.ts).
 */

/** Node's socket errors, as the pg driver passes them on. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * PostgreSQL's SQLSTATEs: class 08 (connection exception), class 53 (insufficient resources: too many
 * connections, out of memory or disk), 55000 (the database does not accept connections: ALLOW_CONNECTIONS
 * false), 57P01-57P05 (shut down, crashed, cannot connect now, database dropped, idle session timeout), 57014
 * (statement_timeout cancelled it).
 */
const SQLSTATES = /^(08...|53...|55000|57P0[1-5]|57014)$/;

/** What pg and pg-pool say when a connection is lost, never made, or a wait ran out. */
const PG_SENTENCES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error and is not queryable',
  'Connection terminated unexpectedly',
  'the database system is',
];

export function databaseUnreachable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown; errcode?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || SQLSTATES.test(code)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  // SQLite waited busy_timeout for a lock and gave up.
  if (e.errcode === 5 || message.includes('database is locked')) return true;
  return PG_SENTENCES.some((sentence) => message.includes(sentence));
}

/** ENOSPC / EDQUOT from the file system, SQLITE_FULL from SQLite. */
export function diskFull(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown; errcode?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.code === 'ENOSPC' || e.code === 'EDQUOT' || e.errcode === 13) return true;
  return typeof e.message === 'string' && e.message.includes('database or disk is full');
}
