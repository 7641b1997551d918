/**
 * The live ambient listenings in Redis (REDIS_URL; issue 60 item 6): the member's page, the listener's page and
 * the instance that started a listening may each be another instance, so every instance reads and changes the
 * same listenings, each change one atomic Lua script (a read then a write would let two instances bind two
 * sockets, or both end a listening).
 *
 * Keys, under the prefix: `listening:<id>`, a hash of the listening; `by:<member>:<session>`, the id of the
 * listening this listener's session has of this member (a start again renews it); `socket:<id>`, the listenings
 * a socket is bound to (its page going ends them); `expiries`, a sorted set of ids by end time. The hash and the
 * index live as long as the listening plus a margin: the instance that ends it must still read whom to tell.
 *
 * Its time running out fires once across instances: the instance that started or renewed it holds a timer, and
 * every instance sweeps `expiries` (that instance may be gone); whichever instance's script deletes the hash
 * first tells its `onEnd` listeners (routes.ts: `ambient_end` to both parties, and the audit), the others find
 * nothing to end.
 */
import { randomUUID } from 'node:crypto';
import {
  type AmbientListenings,
  type EndReason,
  endListeners,
  type Listening,
  type ListeningInput,
  type RelayTarget,
} from './listenings.ts';

/** What these scripts use of a node-redis client. */
export interface AmbientRedis {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  hGetAll(key: string): Promise<Record<string, string>>;
  sMembers(key: string): Promise<string[]>;
  zRangeByScore(key: string, min: number | string, max: number | string): Promise<string[]>;
}

/** How long a listening's keys outlive its end time: the instance that ends it reads it then. */
const KEEP_AFTER_END_MS = 60_000;

// Shared by the scripts: a hash's HGETALL as a Lua table.
const LUA_HASH = `
local function load(key)
  local raw = redis.call('HGETALL', key)
  local l = {}
  for i = 1, #raw, 2 do l[raw[i]] = raw[i + 1] end
  return l, raw
end
`;

// KEYS: the listener's index, the new listening's hash, expiries. ARGV: now, expiresAt, the keys' time to live,
// prefix, the new id, whether the setting now announces it ('1' or '0'), then the new hash's fields and values. A
// live listening of the same member and session is renewed (its bound sockets' entries kept as long), and announced
// if the setting now says so (never hidden again); else the new one is written. Answers {renewed, its hash,
// announced by this renewal}.
const START = `${LUA_HASH}
local existing = redis.call('GET', KEYS[1])
if existing then
  local key = ARGV[4] .. 'listening:' .. existing
  local l = load(key)
  if l.expiresAt and tonumber(l.expiresAt) > tonumber(ARGV[1]) then
    redis.call('HSET', key, 'expiresAt', ARGV[2])
    local announcedNow = 0
    if ARGV[6] == '1' and l.announced ~= '1' then
      redis.call('HSET', key, 'announced', '1')
      announcedNow = 1
    end
    redis.call('PEXPIRE', key, ARGV[3])
    redis.call('PEXPIRE', KEYS[1], ARGV[3])
    redis.call('ZADD', KEYS[3], ARGV[2], existing)
    for _, field in ipairs({'memberSocketId', 'listenerSocketId'}) do
      if l[field] then redis.call('PEXPIRE', ARGV[4] .. 'socket:' .. l[field], ARGV[3]) end
    end
    return {1, redis.call('HGETALL', key), announcedNow}
  end
end
local fields = {}
for i = 7, #ARGV do table.insert(fields, ARGV[i]) end
redis.call('HSET', KEYS[2], unpack(fields))
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('SET', KEYS[1], ARGV[5], 'PX', ARGV[3])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[5])
return {0, redis.call('HGETALL', KEYS[2]), 0}`;

// Issue 69: a live discreet listening announced. KEYS: the hash. ARGV: now. Answers its hash when this call
// announced it; nil when it is over, unknown, or announced already.
const ANNOUNCE = `${LUA_HASH}
local l = load(KEYS[1])
if not l.id or tonumber(l.expiresAt) <= tonumber(ARGV[1]) or l.announced == '1' then return false end
redis.call('HSET', KEYS[1], 'announced', '1')
return redis.call('HGETALL', KEYS[1])`;

// listenings.ts's relayDecision, atomically: the first offer binds the member's socket, the first answer of the
// listener's session its socket (HSET of an unset field, in the script: no second page binds). KEYS: the hash,
// the party socket's set. ARGV: now, the party's user id, session id, socket id, the signal's kind. Answers
// {'socket', id}, {'session', user id, session id}, or nil (refused).
const RELAY = `${LUA_HASH}
local l = load(KEYS[1])
if not l.expiresAt or tonumber(l.expiresAt) <= tonumber(ARGV[1]) then return false end
local kind, socket = ARGV[5], ARGV[4]
local function bind(field)
  redis.call('HSET', KEYS[1], field, socket)
  l[field] = socket
  redis.call('SADD', KEYS[2], l.id)
  local ttl = redis.call('PTTL', KEYS[1])
  if redis.call('PTTL', KEYS[2]) < ttl then redis.call('PEXPIRE', KEYS[2], ttl) end
end
if l.userId == ARGV[2] and kind ~= 'answer' then
  if kind == 'offer' and not l.memberSocketId then bind('memberSocketId') end
  if l.memberSocketId ~= socket then return false end
  if l.listenerSocketId then return {'socket', l.listenerSocketId} end
  return {'session', l.listenerId, l.listenerSessionId}
end
if l.listenerId == ARGV[2] and l.listenerSessionId == ARGV[3] and kind ~= 'offer' and l.memberSocketId then
  if kind == 'answer' and not l.listenerSocketId then bind('listenerSocketId') end
  if l.listenerSocketId ~= socket then return false end
  return {'socket', l.memberSocketId}
end
return false`;

// KEYS: the hash, expiries. ARGV: the id, now, why ('any'; 'expired': only once its time ran out; 'socket': only
// if that socket is a party), the socket id or '', prefix. Deletes the listening and its index entries; answers
// its hash, or nil when there was nothing (any more) to end.
const END = `${LUA_HASH}
local l, raw = load(KEYS[1])
if not l.id then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return false
end
if ARGV[3] == 'expired' and tonumber(l.expiresAt) > tonumber(ARGV[2]) then return false end
if ARGV[3] == 'socket' and l.memberSocketId ~= ARGV[4] and l.listenerSocketId ~= ARGV[4] then return false end
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
local by = ARGV[5] .. 'by:' .. l.userId .. ':' .. l.listenerSessionId
if redis.call('GET', by) == ARGV[1] then redis.call('DEL', by) end
for _, field in ipairs({'memberSocketId', 'listenerSocketId'}) do
  if l[field] then redis.call('SREM', ARGV[5] .. 'socket:' .. l[field], ARGV[1]) end
end
return raw`;

/** A flat HGETALL answer (field, value, ...) as the listening it holds. */
function fromFlat(flat: string[]): Listening {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]] = flat[i + 1];
  return fromHash(fields);
}

function fromHash(fields: Record<string, string>): Listening {
  return {
    id: fields.id,
    userId: Number(fields.userId),
    memberName: fields.memberName,
    listenerId: Number(fields.listenerId),
    listenerName: fields.listenerName,
    listenerSessionId: Number(fields.listenerSessionId),
    announced: fields.announced === '1',
    startedAt: Number(fields.startedAt),
    expiresAt: Number(fields.expiresAt),
    ...(fields.memberSocketId ? { memberSocketId: fields.memberSocketId } : {}),
    ...(fields.listenerSocketId ? { listenerSocketId: fields.listenerSocketId } : {}),
  };
}

/** A new listening's hash, as HSET's field, value, ... arguments. */
function hashOf(input: ListeningInput, id: string, now: number, expiresAt: number): string[] {
  return Object.entries({
    id,
    userId: input.userId,
    memberName: input.memberName,
    listenerId: input.listenerId,
    listenerName: input.listenerName,
    listenerSessionId: input.listenerSessionId,
    announced: input.announced ? 1 : 0,
    startedAt: now,
    expiresAt,
  }).flatMap(([field, value]) => [field, String(value)]);
}

export interface RedisAmbientOptions {
  maxSeconds: number;
  /** How often this instance looks for listenings whose time ran out (5 s, or the longest listening if shorter). */
  sweepMs?: number;
  /** A timer's or a sweep's failure (Redis away): logged; the next sweep tries again. */
  onError(error: unknown, what: string): void;
}

/** `prefix`: this deployment's Redis key prefix and `ambient:`. */
export function redisAmbientListenings(
  redis: AmbientRedis,
  prefix: string,
  options: RedisAmbientOptions,
): AmbientListenings {
  const maxMs = options.maxSeconds * 1000;
  const keyOf = (id: string) => `${prefix}listening:${id}`;
  const socketKey = (socketId: string) => `${prefix}socket:${socketId}`;
  const expiries = `${prefix}expiries`;
  const ended = endListeners();
  /** This instance's timers, for the listenings it started or renewed. */
  const timers = new Map<string, NodeJS.Timeout>();
  let closed = false;

  async function finish(
    id: string,
    why: { mode: 'any' | 'expired' | 'socket'; socketId?: string },
    reason: EndReason,
    byUserId?: number,
  ): Promise<Listening | undefined> {
    const raw = (await redis.eval(END, {
      keys: [keyOf(id), expiries],
      arguments: [id, String(Date.now()), why.mode, why.socketId ?? '', prefix],
    })) as string[] | null;
    if (!raw) return undefined;
    clearTimeout(timers.get(id));
    timers.delete(id);
    const listening = fromFlat(raw);
    await ended.tell(listening, reason, byUserId);
    return listening;
  }

  const expire = (id: string) =>
    finish(id, { mode: 'expired' }, 'expired').catch((error) => options.onError(error, 'ambient listening expiry'));

  function arm(listening: Listening): void {
    clearTimeout(timers.get(listening.id));
    const timer = setTimeout(() => {
      timers.delete(listening.id);
      void expire(listening.id);
    }, listening.expiresAt - Date.now());
    timer.unref?.();
    timers.set(listening.id, timer);
  }

  // The instance that armed a listening's timer may be gone: every instance looks for what ran out. One look at a
  // time: with Redis away, commands wait in the client's queue, and looks must not pile up behind them.
  let sweeping = false;
  const sweep = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    void redis
      .zRangeByScore(expiries, 0, Date.now())
      .then(async (due) => {
        for (const id of due) await expire(id);
      })
      .catch((error) => options.onError(error, 'ambient listening sweep'))
      .finally(() => {
        sweeping = false;
      });
  }, options.sweepMs ?? Math.min(5000, maxMs));
  sweep.unref?.();

  return {
    maxSeconds: options.maxSeconds,
    async start(input) {
      const now = Date.now();
      const expiresAt = now + maxMs;
      const id = randomUUID();
      const [renewed, flat, announcedNow] = (await redis.eval(START, {
        keys: [`${prefix}by:${input.userId}:${input.listenerSessionId}`, keyOf(id), expiries],
        arguments: [
          String(now),
          String(expiresAt),
          String(maxMs + KEEP_AFTER_END_MS),
          prefix,
          id,
          input.announced ? '1' : '0',
          ...hashOf(input, id, now, expiresAt),
        ],
      })) as [number, string[], number];
      const listening = fromFlat(flat);
      arm(listening);
      return { listening, renewed: Number(renewed) === 1, announcedNow: Number(announcedNow) === 1 };
    },
    async get(id) {
      const fields = await redis.hGetAll(keyOf(id));
      return fields.id ? fromHash(fields) : undefined;
    },
    async live() {
      const now = Date.now();
      const listenings: Listening[] = [];
      for (const id of await redis.zRangeByScore(expiries, now + 1, '+inf')) {
        const fields = await redis.hGetAll(keyOf(id));
        if (fields.id && Number(fields.expiresAt) > now) listenings.push(fromHash(fields));
      }
      return listenings;
    },
    async announce(id) {
      const flat = (await redis.eval(ANNOUNCE, { keys: [keyOf(id)], arguments: [String(Date.now())] })) as
        | string[]
        | null;
      return flat ? fromFlat(flat) : undefined;
    },
    end: (id, reason, byUserId) => finish(id, { mode: 'any' }, reason, byUserId),
    async discard(id) {
      await redis.eval(END, {
        keys: [keyOf(id), expiries],
        arguments: [id, String(Date.now()), 'any', '', prefix],
      });
      clearTimeout(timers.get(id));
      timers.delete(id);
    },
    onEnd: ended.add,
    async relay(id, party, kind) {
      const target = (await redis.eval(RELAY, {
        keys: [keyOf(id), socketKey(party.id)],
        arguments: [String(Date.now()), String(party.userId), String(party.sessionId), party.id, kind],
      })) as string[] | null;
      if (!target) return undefined;
      const [to, first, second] = target;
      const relayed: RelayTarget =
        to === 'socket'
          ? { socketId: first }
          : { listenerSession: { userId: Number(first), sessionId: Number(second) } };
      return relayed;
    },
    async socketClosed(socketId) {
      // After close(), this instance's sockets drop because it stops: their listenings run out on the others.
      if (closed) return;
      for (const id of await redis.sMembers(socketKey(socketId)))
        await finish(id, { mode: 'socket', socketId }, 'closed');
    },
    close() {
      closed = true;
      clearInterval(sweep);
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
