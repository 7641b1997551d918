/**
 * What is live now (issue 61): each stream with its sharer's socket and its viewers, and the dispatchers' requests
 * waiting for an answer (one pending per member at a time, issue 69). In memory on one instance; with REDIS_URL in Redis, each change one atomic step (a Lua
 * script), so that across instances a stream ends once, a viewer takes one of the free places once, and a request
 * is answered once. A stream's record names the instance of its sharer's socket: if that instance dies, another
 * one ends the stream (live.ts sweeps them).
 */
export interface Viewer {
  socketId: string;
  userId: number;
}

export interface LiveStream {
  streamId: string;
  channelId: number;
  /** The channel's room key when it started. */
  room: string;
  /** A private call's hidden channel: only its two parties see the stream. */
  hidden: boolean;
  userId: number;
  name: string;
  /** The sharer's socket: the only one whose signalling reaches the viewers. */
  socketId: string;
  instanceId: string;
  startedAt: string;
  requestId?: string;
  /** Through the media server: the Janus it goes through (janus-video.ts); peer to peer without. */
  janusUrl?: string;
  viewers: Viewer[];
}

export type WatchOutcome = 'added' | 'already' | 'full' | 'gone';

export type RequestState = 'pending' | 'accepted' | 'declined' | 'started' | 'expired';

export interface PendingVideoRequest {
  requestId: string;
  channelId: number;
  room: string;
  /** The member asked. */
  userId: number;
  fromUserId: number;
  fromName: string;
  withoutConsent: boolean;
  state: RequestState;
}

export interface LiveVideoStore {
  add(stream: LiveStream): Promise<void>;
  get(streamId: string): Promise<LiveStream | undefined>;
  /** Takes it out; the stream to the one caller that did (a stream ends once), else undefined. */
  remove(streamId: string): Promise<LiveStream | undefined>;
  all(): Promise<LiveStream[]>;
  /** A place among its viewers, unless `max` hold them all. */
  watch(streamId: string, viewer: Viewer, max: number): Promise<{ outcome: WatchOutcome; stream?: LiveStream }>;
  /** Takes a viewer out; the stream when it was one of its viewers. */
  unwatch(streamId: string, socketId: string): Promise<LiveStream | undefined>;
  /**
   * Adds a pending request, kept `ttlMs`, unless its member has one pending already (issue 69: one question at a
   * time on a member's phone, whoever asks): false then. The member's mark lasts `pendingMs` at most (the answer's
   * wait), and goes as soon as the request leaves 'pending'.
   */
  addRequest(request: PendingVideoRequest, ttlMs: number, pendingMs: number): Promise<boolean>;
  request(requestId: string): Promise<PendingVideoRequest | undefined>;
  /** Moves a request from one of `from` to `to`, once; the request as it was, else undefined. */
  settleRequest(requestId: string, from: RequestState[], to: RequestState): Promise<PendingVideoRequest | undefined>;
  /** A request that was never sent (its audit row could not be written): gone, with its member's mark. */
  dropRequest(request: PendingVideoRequest): Promise<void>;
}

export function memoryLiveVideoStore(): LiveVideoStore {
  const streams = new Map<string, LiveStream>();
  const requests = new Map<string, { request: PendingVideoRequest; until: number }>();
  /** Each member's pending request (its id), until its answer's wait is over. */
  const pending = new Map<number, { requestId: string; until: number }>();
  const release = (request: PendingVideoRequest) => {
    if (pending.get(request.userId)?.requestId === request.requestId) pending.delete(request.userId);
  };
  const requestOf = (id: string) => {
    const held = requests.get(id);
    if (held && held.until <= Date.now()) requests.delete(id);
    return held && held.until > Date.now() ? held : undefined;
  };
  const copy = (stream: LiveStream): LiveStream => ({ ...stream, viewers: [...stream.viewers] });
  return {
    async add(stream) {
      streams.set(stream.streamId, copy(stream));
    },
    async get(streamId) {
      const stream = streams.get(streamId);
      return stream && copy(stream);
    },
    async remove(streamId) {
      const stream = streams.get(streamId);
      streams.delete(streamId);
      return stream;
    },
    async all() {
      return [...streams.values()].map(copy);
    },
    async watch(streamId, viewer, max) {
      const stream = streams.get(streamId);
      if (!stream) return { outcome: 'gone' };
      if (stream.viewers.some((v) => v.socketId === viewer.socketId))
        return { outcome: 'already', stream: copy(stream) };
      if (stream.viewers.length >= max) return { outcome: 'full', stream: copy(stream) };
      stream.viewers.push(viewer);
      return { outcome: 'added', stream: copy(stream) };
    },
    async unwatch(streamId, socketId) {
      const stream = streams.get(streamId);
      if (!stream?.viewers.some((v) => v.socketId === socketId)) return undefined;
      stream.viewers = stream.viewers.filter((v) => v.socketId !== socketId);
      return copy(stream);
    },
    async addRequest(request, ttlMs, pendingMs) {
      for (const id of [...requests.keys()]) requestOf(id);
      const held = pending.get(request.userId);
      if (held && held.until > Date.now()) return false;
      pending.set(request.userId, { requestId: request.requestId, until: Date.now() + pendingMs });
      requests.set(request.requestId, { request: { ...request }, until: Date.now() + ttlMs });
      return true;
    },
    async request(requestId) {
      const held = requestOf(requestId);
      return held && { ...held.request };
    },
    async settleRequest(requestId, from, to) {
      const held = requestOf(requestId);
      if (!held || !from.includes(held.request.state)) return undefined;
      const before = { ...held.request };
      held.request.state = to;
      if (before.state === 'pending') release(before);
      return before;
    },
    async dropRequest(request) {
      requests.delete(request.requestId);
      release(request);
    },
  };
}

/** The few Redis commands used here (a node-redis client has them). */
export interface LiveVideoRedis {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  hGet(key: string, field: string): Promise<unknown>;
  hVals(key: string): Promise<unknown>;
  hSet(key: string, field: string, value: string): Promise<unknown>;
  get(key: string): Promise<unknown>;
  set(key: string, value: string, options: { PX: number }): Promise<unknown>;
}

// KEYS: the streams' hash. ARGV: stream id.
const REMOVE = `
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return '' end
redis.call('HDEL', KEYS[1], ARGV[1])
return raw`;

// KEYS: the streams' hash. ARGV: stream id, the viewer (JSON), the most viewers.
const WATCH = `
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return {'gone', ''} end
local stream = cjson.decode(raw)
local viewer = cjson.decode(ARGV[2])
local viewers = stream.viewers or {}
for _, v in ipairs(viewers) do
  if v.socketId == viewer.socketId then return {'already', raw} end
end
if #viewers >= tonumber(ARGV[3]) then return {'full', raw} end
table.insert(viewers, viewer)
stream.viewers = viewers
local out = cjson.encode(stream)
redis.call('HSET', KEYS[1], ARGV[1], out)
return {'added', out}`;

// KEYS: the streams' hash. ARGV: stream id, the viewer's socket id.
const UNWATCH = `
local raw = redis.call('HGET', KEYS[1], ARGV[1])
if not raw then return '' end
local stream = cjson.decode(raw)
local kept = {}
local found = false
for _, v in ipairs(stream.viewers or {}) do
  if v.socketId == ARGV[2] then found = true else table.insert(kept, v) end
end
if not found then return '' end
stream.viewers = kept
local out = cjson.encode(stream)
redis.call('HSET', KEYS[1], ARGV[1], out)
return out`;

// KEYS: the member's pending mark, the request's key. ARGV: request id, the request (JSON), its ttl, the mark's.
const ADD_REQUEST = `
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[4]) then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 1`;

// KEYS: the request's key, its member's pending mark. ARGV: the states it may leave (comma-separated), the state
// it takes, the request's id.
const SETTLE = `
local raw = redis.call('GET', KEYS[1])
if not raw then return '' end
local request = cjson.decode(raw)
local allowed = false
for state in string.gmatch(ARGV[1], '[^,]+') do
  if request.state == state then allowed = true end
end
if not allowed then return '' end
if request.state == 'pending' and redis.call('GET', KEYS[2]) == ARGV[3] then redis.call('DEL', KEYS[2]) end
request.state = ARGV[2]
redis.call('SET', KEYS[1], cjson.encode(request), 'KEEPTTL')
return raw`;

// KEYS: the request's key, its member's pending mark. ARGV: the request's id.
const DROP_REQUEST = `
redis.call('DEL', KEYS[1])
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 1`;

/** A stream read back from Redis: cjson writes an empty list as an object. */
function streamOf(raw: unknown): LiveStream | undefined {
  if (typeof raw !== 'string' || raw === '') return undefined;
  const stream = JSON.parse(raw) as LiveStream;
  return { ...stream, viewers: Array.isArray(stream.viewers) ? stream.viewers : [] };
}

export function redisLiveVideoStore(redis: LiveVideoRedis, prefix: string): LiveVideoStore {
  const streamsKey = `${prefix}live`;
  const requestKey = (id: string) => `${prefix}request:${id}`;
  const pendingKey = (userId: number) => `${prefix}pending:${Math.trunc(userId)}`;
  const requestOf = async (requestId: string) => {
    const raw = await redis.get(requestKey(requestId));
    return typeof raw === 'string' ? (JSON.parse(raw) as PendingVideoRequest) : undefined;
  };
  return {
    async add(stream) {
      await redis.hSet(streamsKey, stream.streamId, JSON.stringify(stream));
    },
    async get(streamId) {
      return streamOf(await redis.hGet(streamsKey, streamId));
    },
    async remove(streamId) {
      return streamOf(await redis.eval(REMOVE, { keys: [streamsKey], arguments: [streamId] }));
    },
    async all() {
      const values = (await redis.hVals(streamsKey)) as string[];
      return values.flatMap((raw) => streamOf(raw) ?? []);
    },
    async watch(streamId, viewer, max) {
      const [outcome, raw] = (await redis.eval(WATCH, {
        keys: [streamsKey],
        arguments: [streamId, JSON.stringify(viewer), String(max)],
      })) as [WatchOutcome, string];
      return { outcome, stream: streamOf(raw) };
    },
    async unwatch(streamId, socketId) {
      return streamOf(await redis.eval(UNWATCH, { keys: [streamsKey], arguments: [streamId, socketId] }));
    },
    async addRequest(request, ttlMs, pendingMs) {
      const ms = (value: number) => String(Math.max(1, Math.round(value)));
      const added = await redis.eval(ADD_REQUEST, {
        keys: [pendingKey(request.userId), requestKey(request.requestId)],
        arguments: [request.requestId, JSON.stringify(request), ms(ttlMs), ms(pendingMs)],
      });
      return Number(added) === 1;
    },
    request: requestOf,
    async settleRequest(requestId, from, to) {
      // The member's mark is named after the member: read first, it names the key (one step settles both).
      const now = await requestOf(requestId);
      if (!now) return undefined;
      const raw = await redis.eval(SETTLE, {
        keys: [requestKey(requestId), pendingKey(now.userId)],
        arguments: [from.join(','), to, requestId],
      });
      return typeof raw === 'string' && raw !== '' ? (JSON.parse(raw) as PendingVideoRequest) : undefined;
    },
    async dropRequest(request) {
      await redis.eval(DROP_REQUEST, {
        keys: [requestKey(request.requestId), pendingKey(request.userId)],
        arguments: [request.requestId],
      });
    },
  };
}
