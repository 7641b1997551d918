/**
 * The floor queue of each channel (issue 59), kept beside its holder (holders.ts): the presses waiting for a
 * busy floor, by talk priority then time, and the offer of a free floor to the first of them. Every change is
 * one decision: in memory on one instance, one atomic Lua script on the shared Redis, so that across instances
 * a press joins once, an expiry is seen once and the floor is offered once. Deadlines (a press's expiry, an
 * offer's) are kept with the entries: whichever instance steps a channel after them applies them.
 */
import type { Role } from '@talkgroup/protocol';
import type { FloorRedis, MemorySlots } from './holders.ts';
import type { FloorClaim } from './policy.ts';

/** A press waiting in a channel's queue. */
export interface QueuedPress {
  socketId: string;
  userId: number;
  name: string;
  role: Role;
  priority: number;
  /** ISO time it joined. */
  since: string;
  /** The same, in ms (the order among equal priorities). */
  at: number;
  /** When it leaves the queue unless offered the floor before (FLOOR_QUEUE_SECONDS). */
  expiresAt: number;
}

/** The queue before and after a change, first first. */
export interface QueueChange {
  before: QueuedPress[];
  after: QueuedPress[];
}

export interface StepResult extends QueueChange {
  /** An offer that ran out (its socket did not confirm it). */
  notTaken?: FloorClaim;
  /** The offer just made to the first of the queue (the floor was free). */
  offered?: FloorClaim;
}

export interface FloorQueueStore {
  /** Adds a press (a socket already queued keeps its place); its position from 1. */
  join(channelId: number, room: string, press: QueuedPress): Promise<QueueChange & { position: number }>;
  /** Takes a socket's (or a user's) presses out, and its offer; `declined`: the offer it had. */
  leave(
    channelId: number,
    who: { socketId?: string; userId?: number },
  ): Promise<QueueChange & { declined?: FloorClaim }>;
  /** Drops an offer past its deadline and expired presses, then offers a free floor to the first. */
  step(channelId: number, room: string, offer: { grantId: string; acceptMs: number }): Promise<StepResult>;
  /** The channels with a queue or an offer now, with their rooms (each instance's sweep steps them). */
  channels(): Promise<Array<{ channelId: number; room: string }>>;
  /** Who waits in a channel's queue now, first first (a page that joins learns it). */
  waiting(channelId: number): Promise<QueuedPress[]>;
}

/** First the highest priority, then the earliest. */
function byTurn(a: QueuedPress, b: QueuedPress): number {
  return b.priority - a.priority || a.at - b.at || (a.socketId < b.socketId ? -1 : a.socketId > b.socketId ? 1 : 0);
}

/**
 * A press's time in the queue: after every press already there (a millisecond at least: Redis's JSON keeps no
 * fraction of one), so that two presses of the same millisecond keep the order they arrived in, not the order of
 * their sockets' ids.
 */
const arrivalAfter = (queue: QueuedPress[], at: number): number =>
  queue.reduce((latest, entry) => Math.max(latest, entry.at + 1), at);

const matches = (entry: { socketId: string; userId: number }, who: { socketId?: string; userId?: number }) =>
  (who.socketId !== undefined && entry.socketId === who.socketId) ||
  (who.userId !== undefined && entry.userId === who.userId);

/** The offer a step makes to the first of the queue: a holding of the floor until its deadline. */
function offerOf(first: QueuedPress, offer: { grantId: string; acceptMs: number }, now: number): FloorClaim {
  const { socketId, userId, name, role, priority } = first;
  return {
    socketId,
    userId,
    name,
    role,
    priority,
    since: new Date(now).toISOString(),
    grantId: offer.grantId,
    offer: true,
    deadline: now + offer.acceptMs,
  };
}

/** An offer is kept in the holders a little longer than its deadline: the step that ends it tells its socket. */
const OFFER_GRACE_MS = 5000;

export function memoryQueueStore(slots: MemorySlots): FloorQueueStore {
  const queues = new Map<number, { room: string; queue: QueuedPress[] }>();
  const save = (channelId: number, room: string, queue: QueuedPress[]) => {
    if (queue.length > 0 || slots.get(channelId)?.offer) queues.set(channelId, { room, queue });
    else queues.delete(channelId);
  };
  return {
    async join(channelId, room, press) {
      const before = queues.get(channelId)?.queue ?? [];
      const after = before.some((e) => e.socketId === press.socketId)
        ? before
        : [...before, { ...press, at: arrivalAfter(before, press.at) }].sort(byTurn);
      queues.set(channelId, { room, queue: after });
      return { before, after, position: after.findIndex((e) => e.socketId === press.socketId) + 1 };
    },
    async leave(channelId, who) {
      const held = queues.get(channelId);
      const before = held?.queue ?? [];
      const after = before.filter((e) => !matches(e, who));
      const holder = slots.get(channelId);
      const declined = holder?.offer && matches(holder, who) ? holder : undefined;
      if (declined) slots.delete(channelId);
      if (held) save(channelId, held.room, after);
      return { before, after, ...(declined ? { declined } : {}) };
    },
    async step(channelId, room, offer) {
      const now = Date.now();
      const before = queues.get(channelId)?.queue ?? [];
      let holder = slots.get(channelId);
      let notTaken: FloorClaim | undefined;
      if (holder?.offer && (holder.deadline ?? 0) <= now) {
        notTaken = holder;
        holder = undefined;
        slots.delete(channelId);
      }
      const after = before.filter((e) => e.expiresAt > now);
      let offered: FloorClaim | undefined;
      const first = holder ? undefined : after.shift();
      if (first) {
        offered = offerOf(first, offer, now);
        slots.set(channelId, offered, offer.acceptMs + OFFER_GRACE_MS);
      }
      save(channelId, room, after);
      return { before, after, ...(notTaken ? { notTaken } : {}), ...(offered ? { offered } : {}) };
    },
    async channels() {
      return [...queues].map(([channelId, { room }]) => ({ channelId, room }));
    },
    async waiting(channelId) {
      return queues.get(channelId)?.queue ?? [];
    },
  };
}

// Shared by the scripts: the queue's key holds its JSON array, sorted as byTurn sorts.
const LUA_QUEUE = `
local function load(key)
  local raw = redis.call('GET', key)
  if not raw then return {}, '[]' end
  return cjson.decode(raw), raw
end
local function encode(q)
  if #q == 0 then return '[]' end
  return cjson.encode(q)
end
local function save(qkey, q)
  if #q == 0 then redis.call('DEL', qkey) else redis.call('SET', qkey, cjson.encode(q)) end
end
local function byTurn(a, b)
  if a.priority ~= b.priority then return a.priority > b.priority end
  if a.at ~= b.at then return a.at < b.at end
  return a.socketId < b.socketId
end
local function matches(e, socketId, userId)
  return (socketId ~= '' and e.socketId == socketId) or (userId ~= '' and tostring(e.userId) == userId)
end
`;

// KEYS: queue, channels (hash), holder. ARGV: channel id, room, the press (JSON).
const JOIN = `${LUA_QUEUE}
local q, before = load(KEYS[1])
local press = cjson.decode(ARGV[3])
local found = false
for _, e in ipairs(q) do if e.socketId == press.socketId then found = true end end
if not found then
  -- After every press already there: two of the same millisecond keep the order they arrived in.
  for _, e in ipairs(q) do if e.at >= press.at then press.at = e.at + 1 end end
  table.insert(q, press)
  table.sort(q, byTurn)
end
local position = 0
for i, e in ipairs(q) do if e.socketId == press.socketId then position = i end end
save(KEYS[1], q)
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return {before, encode(q), position}`;

// KEYS: queue, channels, holder. ARGV: channel id, socket id or '', user id or ''.
const LEAVE = `${LUA_QUEUE}
local q, before = load(KEYS[1])
local kept = {}
for _, e in ipairs(q) do
  if not matches(e, ARGV[2], ARGV[3]) then table.insert(kept, e) end
end
local declined = ''
local current = redis.call('GET', KEYS[3])
local holder = current and cjson.decode(current)
if holder and holder.offer and matches(holder, ARGV[2], ARGV[3]) then
  redis.call('DEL', KEYS[3])
  declined = current
  holder = nil
end
save(KEYS[1], kept)
if #kept == 0 and not (holder and holder.offer) then redis.call('HDEL', KEYS[2], ARGV[1]) end
return {before, encode(kept), declined}`;

// KEYS: queue, channels, holder. ARGV: channel id, room, now (ms), the offer's grant id, acceptMs, now (ISO),
// the offer's time to live in the holders (ms).
const STEP = `${LUA_QUEUE}
local now = tonumber(ARGV[3])
local q, before = load(KEYS[1])
local notTaken = ''
local current = redis.call('GET', KEYS[3])
local holder = current and cjson.decode(current)
if holder and holder.offer and (tonumber(holder.deadline) or 0) <= now then
  redis.call('DEL', KEYS[3])
  notTaken = current
  holder = nil
end
local kept = {}
for _, e in ipairs(q) do
  if tonumber(e.expiresAt) > now then table.insert(kept, e) end
end
local offered = ''
if not holder and #kept > 0 then
  local first = table.remove(kept, 1)
  holder = {
    socketId = first.socketId, userId = first.userId, name = first.name, role = first.role,
    priority = first.priority, since = ARGV[6], grantId = ARGV[4], offer = true,
    deadline = now + tonumber(ARGV[5])
  }
  offered = cjson.encode(holder)
  redis.call('SET', KEYS[3], offered, 'PX', ARGV[7])
end
save(KEYS[1], kept)
if #kept == 0 and not (holder and holder.offer) then
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
end
return {before, encode(kept), notTaken, offered}`;

const list = (raw: string): QueuedPress[] => {
  const parsed: unknown = JSON.parse(raw);
  return Array.isArray(parsed) ? (parsed as QueuedPress[]) : [];
};
const claim = (raw: string): FloorClaim | undefined => (raw ? (JSON.parse(raw) as FloorClaim) : undefined);

/** `prefix`: the holders' (holders.ts: `${prefix}${channelId}` is a channel's holder). */
export function redisQueueStore(
  redis: FloorRedis & { hGetAll(key: string): Promise<Record<string, string>> },
  prefix: string,
): FloorQueueStore {
  const keys = (channelId: number) => [`${prefix}queue:${channelId}`, `${prefix}queues`, `${prefix}${channelId}`];
  return {
    async join(channelId, room, press) {
      const [before, after, position] = (await redis.eval(JOIN, {
        keys: keys(channelId),
        arguments: [String(channelId), room, JSON.stringify(press)],
      })) as [string, string, number];
      return { before: list(before), after: list(after), position: Number(position) };
    },
    async leave(channelId, who) {
      const [before, after, declined] = (await redis.eval(LEAVE, {
        keys: keys(channelId),
        arguments: [String(channelId), who.socketId ?? '', who.userId === undefined ? '' : String(who.userId)],
      })) as [string, string, string];
      const offer = claim(declined);
      return { before: list(before), after: list(after), ...(offer ? { declined: offer } : {}) };
    },
    async step(channelId, room, offer) {
      const now = Date.now();
      const [before, after, notTaken, offered] = (await redis.eval(STEP, {
        keys: keys(channelId),
        arguments: [
          String(channelId),
          room,
          String(now),
          offer.grantId,
          String(offer.acceptMs),
          new Date(now).toISOString(),
          String(offer.acceptMs + OFFER_GRACE_MS),
        ],
      })) as [string, string, string, string];
      const ended = claim(notTaken);
      const made = claim(offered);
      return {
        before: list(before),
        after: list(after),
        ...(ended ? { notTaken: ended } : {}),
        ...(made ? { offered: made } : {}),
      };
    },
    async channels() {
      const all = await redis.hGetAll(`${prefix}queues`);
      return Object.entries(all).map(([channelId, room]) => ({ channelId: Number(channelId), room }));
    },
    async waiting(channelId) {
      const raw = (await redis.get(keys(channelId)[0])) as string | null;
      return raw ? list(raw) : [];
    },
  };
}
