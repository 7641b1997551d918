/**
 * Which Janus carries each channel, agreed by every app instance: a channel's pages must all be in one room,
 * whichever instance holds their sockets. With REDIS_URL the choice is one atomic script (keep the current
 * Janus if it is alive, else take the candidate: never a read then a write); otherwise this process's memory.
 *
 * The candidate is the alive Janus that ranks the channel highest (rendezvous hashing): instances that see
 * the same Janus instances pick the same one without talking, channels spread over them, and when one dies
 * only its channels move. A channel stays where it went when a Janus comes back (no second move).
 *
 * Locks (same store) keep two instances from making the same room's mountpoint or patch at once.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface AssignmentStore {
  /** The channel's Janus: the current one if it is among `alive`, else `candidate` (stored). */
  assign(channelId: number, candidate: string, alive: string[]): Promise<string>;
  /** Runs `work` while no other instance runs work under the same name. */
  exclusive<T>(name: string, work: () => Promise<T>): Promise<T>;
}

/** Kept for a day after the last use: long enough for any room, short enough to forget channels gone quiet. */
const ASSIGNMENT_TTL_MS = 24 * 60 * 60 * 1000;
/** A lock a crashed holder left is free again after this (the work under it takes well under a second). */
const LOCK_TTL_MS = 15_000;
const LOCK_RETRY_MS = 25;

function rank(url: string, channelId: number): bigint {
  return createHash('sha1').update(`${url}\n${channelId}`).digest().readBigUInt64BE(0);
}

/** The alive Janus that ranks this channel highest. */
export function candidateFor(channelId: number, alive: string[]): string | undefined {
  let best: string | undefined;
  let bestRank = -1n;
  for (const url of alive) {
    const score = rank(url, channelId);
    if (score > bestRank) {
      best = url;
      bestRank = score;
    }
  }
  return best;
}

export function memoryAssignments(): AssignmentStore {
  const assigned = new Map<number, string>();
  const locks = new Map<string, Promise<unknown>>();
  return {
    async assign(channelId, candidate, alive) {
      const current = assigned.get(channelId);
      if (current && alive.includes(current)) return current;
      assigned.set(channelId, candidate);
      return candidate;
    },
    exclusive(name, work) {
      const before = locks.get(name) ?? Promise.resolve();
      const run = before.catch(() => {}).then(work);
      const settled = run.catch(() => {});
      locks.set(name, settled);
      void settled.then(() => {
        if (locks.get(name) === settled) locks.delete(name);
      });
      return run;
    },
  };
}

/** The commands used here (a node-redis client has them). */
export interface AssignmentRedis {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

// ARGV: the candidate, the time to live (ms), then the alive Janus instances.
const ASSIGN = `
local current = redis.call('GET', KEYS[1])
if current then
  for i = 3, #ARGV do
    if ARGV[i] == current then
      redis.call('PEXPIRE', KEYS[1], ARGV[2])
      return current
    end
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return ARGV[1]`;

const LOCK = `return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) and 1 or 0`;
const UNLOCK = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export function redisAssignments(redis: AssignmentRedis, prefix: string): AssignmentStore {
  return {
    async assign(channelId, candidate, alive) {
      return String(
        await redis.eval(ASSIGN, {
          keys: [`${prefix}media:channel:${channelId}`],
          arguments: [candidate, String(ASSIGNMENT_TTL_MS), ...alive],
        }),
      );
    },
    async exclusive(name, work) {
      const key = `${prefix}media:lock:${name}`;
      const token = randomBytes(9).toString('base64url');
      const deadline = Date.now() + LOCK_TTL_MS;
      while (Number(await redis.eval(LOCK, { keys: [key], arguments: [token, String(LOCK_TTL_MS)] })) !== 1) {
        if (Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
      }
      try {
        return await work();
      } finally {
        await redis.eval(UNLOCK, { keys: [key], arguments: [token] }).catch(() => {});
      }
    },
  };
}
