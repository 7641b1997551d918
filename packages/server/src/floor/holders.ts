/**
 * Who holds the floor of each channel. One holder per channel across instances: with Redis the decision is
 * one atomic script (never a read then a write); without Redis there is one instance, and memory is the
 * truth. Answered without any database write, so a grant is as fast as a round trip to Redis.
 */
import { floorPriorityOf, ROLES, type Role } from '@talkgroup/protocol';

export interface FloorClaim {
  socketId: string;
  userId: number;
  name: string;
  role: Role;
  /** ISO time of the grant. */
  since: string;
  /** Who may take the floor from whom: a higher priority preempts a lower one (the role's, protocol's roles.ts). */
  priority: number;
}

/** A claim written by an older instance has no priority: its role tells. */
const priorityOf = (claim: FloorClaim) =>
  typeof claim.priority === 'number' ? claim.priority : floorPriorityOf(claim.role);

export type FloorDecision = { granted: true; preempted?: FloorClaim } | { granted: false; holder: FloorClaim };

export interface FloorStore {
  /**
   * Gives the floor to `claim` when nobody holds it, when its socket already does (keeping the higher of the
   * two priorities), or when the claim's priority is higher than the holder's. `ttlMs` bounds a holding that
   * nobody releases (a lost instance).
   */
  take(channelId: number, claim: FloorClaim, ttlMs: number): Promise<FloorDecision>;
  /** Frees the floor if this socket holds it; returns the claim that was freed. */
  release(channelId: number, socketId: string): Promise<FloorClaim | undefined>;
  /** Who holds the floor now, if anyone. */
  holder(channelId: number): Promise<FloorClaim | undefined>;
}

export function memoryFloorStore(): FloorStore {
  const holders = new Map<number, { claim: FloorClaim; until: number }>();
  const current = (channelId: number) => {
    const held = holders.get(channelId);
    if (held && held.until <= Date.now()) holders.delete(channelId);
    return holders.get(channelId)?.claim;
  };
  return {
    async take(channelId, claim, ttlMs) {
      const holder = current(channelId);
      const same = holder?.socketId === claim.socketId;
      if (holder && !same && priorityOf(claim) <= priorityOf(holder)) return { granted: false, holder };
      holders.set(channelId, {
        claim: holder && same ? { ...holder, priority: Math.max(priorityOf(holder), claim.priority) } : claim,
        until: Date.now() + ttlMs,
      });
      return holder && holder.socketId !== claim.socketId ? { granted: true, preempted: holder } : { granted: true };
    },
    async release(channelId, socketId) {
      const holder = current(channelId);
      if (holder?.socketId !== socketId) return undefined;
      holders.delete(channelId);
      return holder;
    },
    async holder(channelId) {
      return current(channelId);
    },
  };
}

/** The commands used here (a node-redis client has them). */
export interface FloorRedis {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  get(key: string): Promise<unknown>;
}

// ARGV: the claim (JSON), its priority, the time to live (ms), each role's priority (JSON: for claims without one).
const TAKE = `
local current = redis.call('GET', KEYS[1])
if current then
  local holder = cjson.decode(current)
  local claim = cjson.decode(ARGV[1])
  local held = tonumber(holder.priority)
  if held == nil then
    held = tonumber(cjson.decode(ARGV[4])[holder.role]) or 0
  end
  local wanted = tonumber(ARGV[2])
  if holder.socketId == claim.socketId then
    if wanted > held then
      redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
    else
      redis.call('PEXPIRE', KEYS[1], ARGV[3])
    end
    return {1, ''}
  end
  if wanted <= held then return {0, current} end
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
  return {1, current}
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return {1, ''}`;

const RELEASE = `
local current = redis.call('GET', KEYS[1])
if not current then return '' end
if cjson.decode(current).socketId ~= ARGV[1] then return '' end
redis.call('DEL', KEYS[1])
return current`;

const ROLE_PRIORITIES = JSON.stringify(Object.fromEntries(ROLES.map((role) => [role, floorPriorityOf(role)])));

export function redisFloorStore(redis: FloorRedis, prefix: string): FloorStore {
  return {
    async take(channelId, claim, ttlMs) {
      const [granted, other] = (await redis.eval(TAKE, {
        keys: [`${prefix}${channelId}`],
        arguments: [
          JSON.stringify(claim),
          String(claim.priority),
          String(Math.max(1, Math.round(ttlMs))),
          ROLE_PRIORITIES,
        ],
      })) as [number, string];
      if (granted === 1) return other ? { granted: true, preempted: JSON.parse(other) } : { granted: true };
      return { granted: false, holder: JSON.parse(other) };
    },
    async release(channelId, socketId) {
      const freed = (await redis.eval(RELEASE, { keys: [`${prefix}${channelId}`], arguments: [socketId] })) as string;
      return freed ? (JSON.parse(freed) as FloorClaim) : undefined;
    },
    async holder(channelId) {
      const held = (await redis.get(`${prefix}${channelId}`)) as string | null;
      return held ? (JSON.parse(held) as FloorClaim) : undefined;
    },
  };
}
