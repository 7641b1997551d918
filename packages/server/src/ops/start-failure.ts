/**
 * What `npm start` prints when the server cannot start: one sentence that names the setting to look at and
 * what failed, before the error's own details (issue 47: a server must never leave without a word). The
 * database address is named without its password.
 */
import path from 'node:path';
import type { Config } from '../config/config.ts';

/** What the start was doing, for the sentence; `serving` once it listens. */
export type StartStep = 'configuration' | 'build' | 'administrator' | 'listen' | 'serving';

const STEP_WORDS: Record<StartStep, string> = {
  configuration: 'reading the configuration',
  build: 'opening the database and connecting to Redis and the media servers',
  administrator: 'creating the administrator ADMIN_LOGIN',
  listen: 'starting to listen on HOST:PORT',
  serving: 'serving',
};

/**
 * The process is about to end on its own before it listens: a step waited on something nothing will settle
 * (a promise no timer or connection holds). Said instead of ending silently with status 0.
 */
export function stalledStartSentence(step: StartStep): string {
  return `Talkgroup could not start: it stopped while ${STEP_WORDS[step]}, with nothing left to wait for. This is a bug: please report it with this log (LOG_LEVEL=debug says more).`;
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host name',
  EAI_AGAIN: 'the host name could not be resolved now',
  ETIMEDOUT: 'no answer',
  EHOSTUNREACH: 'the host is unreachable',
  ECONNRESET: 'the connection was reset',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a part of the path is a file, not a folder',
  ENOENT: 'no such file or folder',
  ENOSPC: 'no space left on the disk',
  EROFS: 'the file system is read-only',
};

interface SystemError {
  code?: string;
  syscall?: string;
  path?: string;
  port?: number;
  hostname?: string;
}

/** A database address without its user's password. */
function databaseAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
  } catch {
    return 'its address';
  }
}

export function startFailureSentence(error: unknown, step: StartStep, config: Config | undefined): string {
  const failure = (error ?? {}) as SystemError;
  const message = error instanceof Error ? error.message : String(error);
  const reason = failure.code && REASONS[failure.code] ? `${REASONS[failure.code]} (${message})` : message;
  const prefix = 'Talkgroup could not start:';
  if (!config) return `${prefix} ${reason}`;

  if (step === 'listen') {
    const where = `PORT ${config.port} on HOST ${config.host}`;
    if (failure.code === 'EADDRINUSE')
      return `${prefix} ${where} is already in use by another process: stop it, or set PORT to a free port.`;
    if (failure.code === 'EACCES')
      return `${prefix} ${where} needs privileges on this system: set PORT above 1023 and serve 443 through a reverse proxy.`;
    if (failure.code === 'EADDRNOTAVAIL')
      return `${prefix} HOST ${config.host} is not an address of this machine: set HOST to one of its addresses (or 0.0.0.0).`;
    return `${prefix} it could not listen on ${where}: ${reason}.`;
  }
  if (step === 'administrator') return `${prefix} creating the administrator ADMIN_LOGIN failed: ${reason}.`;

  // While the app is built: its database first, then what it connects to (Redis says so in its own message).
  if (failure.path && path.resolve(failure.path).startsWith(config.dataDir))
    return `${prefix} DATA_DIR ${config.dataDir} cannot be used: ${reason}.`;
  if (config.databaseUrl) {
    const address = databaseAddress(config.databaseUrl);
    const unreachable =
      (failure.syscall === 'connect' && (failure.port === undefined || address.includes(`:${failure.port}/`))) ||
      (failure.syscall === 'getaddrinfo' && address.startsWith(`${failure.hostname}:`));
    if (unreachable) return `${prefix} the database of DATABASE_URL (${address}) does not answer: ${reason}.`;
    // PostgreSQL's own refusals carry an SQLSTATE (28P01: wrong password, 3D000: no such database, …).
    if (failure.code && /^(?=.*\d)[0-9A-Z]{5}$/.test(failure.code))
      return `${prefix} the database of DATABASE_URL (${address}) refused: ${reason}.`;
  }
  return `${prefix} ${reason}`;
}
