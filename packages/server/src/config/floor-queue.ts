/** How long a floor queue's press and offer wait (issue 59), from the environment. */
import { ConfigError, parsePositiveSeconds } from './values.ts';

export interface QueueTimings {
  /** How long a press waits at most (FLOOR_QUEUE_SECONDS). */
  queueMs: number;
  /** How long an offer waits for its press (3 s). */
  acceptMs: number;
}

/** FLOOR_QUEUE_SECONDS (30 by default) and FLOOR_QUEUE_ACCEPT_MS (3000: the offer's `acceptMs`). */
export function parseFloorQueue(env: NodeJS.ProcessEnv): QueueTimings {
  const raw = env.FLOOR_QUEUE_ACCEPT_MS;
  const acceptMs = raw === undefined || raw === '' ? 3000 : Number(raw);
  if (!Number.isInteger(acceptMs) || acceptMs < 100 || acceptMs > 60_000)
    throw new ConfigError(`FLOOR_QUEUE_ACCEPT_MS must be a number of milliseconds from 100 to 60000, not "${raw}"`);
  return { queueMs: parsePositiveSeconds('FLOOR_QUEUE_SECONDS', env.FLOOR_QUEUE_SECONDS, 30) * 1000, acceptMs };
}
