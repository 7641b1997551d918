/**
 * Who holds the floor of each channel. One holder per channel across instances: with Redis the decision is
 * one atomic script (never a read then a write); without Redis there is one instance, and memory is the
 * truth. Both apply policy.ts's `decideTake`. Answered without any database write, so a grant is as fast as a
 * round trip to Redis. A holding may be an offer to the first of the channel's queue (issue 59, queue-store.ts
 * writes those): a release never ends an offer, only its confirmation, its deadline, a cancel or a break-in.
 */
import { floorPriorityOf, ROLES } from '@talkgroup/protocol';
import { decideTake, type FloorClaim } from './policy.ts';

export type { FloorClaim } from './policy.ts';

/** A take's outcome: granted, the claim the floor keeps (its grant) and the holding it ended; or who holds it. */
export type FloorDecision =
  | { granted: true; kept: FloorClaim; preempted?: FloorClaim }
  | { granted: false; holder: FloorClaim };

export interface FloorStore {
  /**
   * Takes the floor for `claim` as policy.ts decides. `ttlMs` bounds a holding nobody releases (a lost instance);
   * `interrupt` false: a higher priority does not break in (the channel's preemption is `queue`).
   */
  take(channelId: number, claim: FloorClaim, ttlMs: number, interrupt?: boolean): Promise<FloorDecision>;
  /** Frees the floor if this socket holds it (not an offer); returns the claim that was freed. */
  release(channelId: number, socketId: string): Promise<FloorClaim | undefined>;
  /** Who holds the floor now, if anyone (an offer too). */
  holder(channelId: number): Promise<FloorClaim | undefined>;
}

/** The memory store's holdings, which the memory queue (queue-store.ts) reads and writes on one instance. */
export interface MemorySlots {
  get(channelId: number): FloorClaim | undefined;
  set(channelId: number, claim: FloorClaim, ttlMs: number): void;
  delete(channelId: number): void;
}

export function memoryFloorStore(): FloorStore & { slots: MemorySlots } {
  const holders = new Map<number, { claim: FloorClaim; until: number }>();
  const slots: MemorySlots = {
    get(channelId) {
      const held = holders.get(channelId);
      if (held && held.until <= Date.now()) holders.delete(channelId);
      return holders.get(channelId)?.claim;
    },
    set: (channelId, claim, ttlMs) => holders.set(channelId, { claim, until: Date.now() + ttlMs }),
    delete: (channelId) => holders.delete(channelId),
  };
  return {
    slots,
    async take(channelId, claim, ttlMs, interrupt = true) {
      const holder = slots.get(channelId);
      const decision = decideTake(holder, claim, { now: Date.now(), interrupt });
      if (!decision.granted) return { granted: false, holder: holder as FloorClaim };
      slots.set(channelId, decision.keeps, ttlMs);
      return { granted: true, kept: decision.keeps, preempted: decision.preempted };
    },
    async release(channelId, socketId) {
      const holder = slots.get(channelId);
      if (holder?.socketId !== socketId || holder.offer) return undefined;
      holders.delete(channelId);
      return holder;
    },
    async holder(channelId) {
      return slots.get(channelId);
    },
  };
}

/** The commands used here (a node-redis client has them). */
export interface FloorRedis {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  get(key: string): Promise<unknown>;
}

// policy.ts's decideTake, atomically. ARGV: the claim (JSON), its priority, the time to live (ms), each role's
// priority (JSON: for claims without one), now (ms), interrupt (1 or 0). Answers {granted, the holding ended or
// refusing, the claim kept}.
const TAKE = `
local current = redis.call('GET', KEYS[1])
if current then
  local holder = cjson.decode(current)
  if holder.offer and (tonumber(holder.deadline) or 0) <= tonumber(ARGV[5]) then
    redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
    return {1, current, ARGV[1]}
  end
  local claim = cjson.decode(ARGV[1])
  local held = tonumber(holder.priority)
  if held == nil then
    held = tonumber(cjson.decode(ARGV[4])[holder.role]) or 0
  end
  local wanted = tonumber(ARGV[2])
  if holder.socketId == claim.socketId then
    if holder.offer or wanted > held then
      if holder.offer then holder.since = claim.since end
      holder.offer = nil
      holder.deadline = nil
      if wanted > held then holder.priority = wanted end
      local kept = cjson.encode(holder)
      redis.call('SET', KEYS[1], kept, 'PX', ARGV[3])
      return {1, '', kept}
    end
    redis.call('PEXPIRE', KEYS[1], ARGV[3])
    return {1, '', current}
  end
  if ARGV[6] ~= '1' or wanted <= held then return {0, current, ''} end
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
  return {1, current, ARGV[1]}
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return {1, '', ARGV[1]}`;

const RELEASE = `
local current = redis.call('GET', KEYS[1])
if not current then return '' end
local holder = cjson.decode(current)
if holder.socketId ~= ARGV[1] or holder.offer then return '' end
redis.call('DEL', KEYS[1])
return current`;

const ROLE_PRIORITIES = JSON.stringify(Object.fromEntries(ROLES.map((role) => [role, floorPriorityOf(role)])));

export function redisFloorStore(redis: FloorRedis, prefix: string): FloorStore {
  return {
    async take(channelId, claim, ttlMs, interrupt = true) {
      const [granted, other, kept] = (await redis.eval(TAKE, {
        keys: [`${prefix}${channelId}`],
        arguments: [
          JSON.stringify(claim),
          String(claim.priority),
          String(Math.max(1, Math.round(ttlMs))),
          ROLE_PRIORITIES,
          String(Date.now()),
          interrupt ? '1' : '0',
        ],
      })) as [number, string, string];
      if (granted === 1)
        return { granted: true, kept: JSON.parse(kept), ...(other ? { preempted: JSON.parse(other) } : {}) };
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
