/**
 * What waits to be sent (issue 47), and in which order: one queue per push service (the endpoint's origin), each
 * with two lanes (alerts before transmissions); within a lane the push services are served in turn (round robin).
 * At most 50,000 pushes wait: past that, the push service with the most waiting loses its least urgent, newest;
 * a stalled push service keeps 1,000 waiting at most (its least urgent, oldest go first). The sender
 * (sender.ts) decides when a push service has room and what its health is.
 */
import type { StoredSubscription } from './store.ts';

/** `alert` goes before `transmission`. */
export const PUSH_LANES = ['alert', 'transmission'] as const;
export type PushLane = (typeof PUSH_LANES)[number];

export interface PushOptions {
  urgency: 'very-low' | 'low' | 'normal' | 'high';
  /** Seconds the push service keeps it while the device is away. */
  ttl: number;
  /** A later push of the same topic replaces this one at the push service (base64url, 32 characters at most). */
  topic?: string;
  lane: PushLane;
}

export interface Job {
  subscription: StoredSubscription;
  payload: string;
  options: PushOptions;
  attempt: number;
  /** Past this (ms since the epoch) the push is not worth sending: its TTL has passed. */
  staleAt: number;
}

export type PushServiceHealth = 'new' | 'answering' | 'stalled';

export interface PushService {
  origin: string;
  health: PushServiceHealth;
  lanes: Record<PushLane, Fifo<Job>>;
  waiting: number;
  inFlight: number;
}

const QUEUE_MAX = 50_000;
export const STALLED_WAITING_MAX = 1_000;
/** Push services remembered (their health) at most; the least recently used are forgotten past it. */
const SERVICES_MAX = 10_000;

/** A first-in first-out list that takes from its head in constant time. */
export class Fifo<T> {
  private items: T[] = [];
  private head = 0;
  get length(): number {
    return this.items.length - this.head;
  }
  push(item: T): void {
    this.items.push(item);
  }
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined as T;
    this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
  /** The newest item, taken off. */
  pop(): T | undefined {
    return this.length > 0 ? this.items.pop() : undefined;
  }
  clear(): void {
    this.items = [];
    this.head = 0;
  }
}

const originOf = (endpoint: string): string => {
  try {
    return new URL(endpoint).origin;
  } catch {
    return endpoint;
  }
};

/** The least urgent lane of the push service that has pushes waiting. */
const lastLaneOf = (service: PushService) => [...PUSH_LANES].reverse().find((name) => service.lanes[name].length > 0);

export function sendQueue(deps: {
  /** Counts a push that had to go (talkgroup_push_total{outcome="dropped"}). */
  dropped: () => void;
  /** Whether a push service not seen yet is taken as answering. */
  answeringAtFirst: (origin: string) => boolean;
}) {
  /** Push services by origin: those with pushes waiting or in flight, and the health of those seen lately. */
  const services = new Map<string, PushService>();
  /**
   * Per lane, the push services with pushes waiting in it, in the order they are served: one served goes to the
   * back (round robin); one without room keeps its place.
   */
  const turns: Record<PushLane, Set<PushService>> = { alert: new Set(), transmission: new Set() };
  let waiting = 0;

  function serviceOf(origin: string): PushService {
    let service = services.get(origin);
    if (service) {
      // Most recently used last: the first ones are forgotten first.
      services.delete(origin);
    } else {
      service = {
        origin,
        health: deps.answeringAtFirst(origin) ? 'answering' : 'new',
        lanes: { alert: new Fifo(), transmission: new Fifo() },
        waiting: 0,
        inFlight: 0,
      };
    }
    services.set(origin, service);
    if (services.size > SERVICES_MAX) {
      for (const [key, old] of services) {
        if (services.size <= SERVICES_MAX) break;
        if (old.waiting === 0 && old.inFlight === 0) services.delete(key);
      }
    }
    return service;
  }

  /** One waiting push of the service's least urgent lane goes: its oldest, or its newest. */
  function drop(service: PushService, which: 'oldest' | 'newest'): boolean {
    const lane = lastLaneOf(service);
    if (!lane) return false;
    if (which === 'oldest') service.lanes[lane].shift();
    else service.lanes[lane].pop();
    if (service.lanes[lane].length === 0) turns[lane].delete(service);
    service.waiting -= 1;
    waiting -= 1;
    deps.dropped();
    return true;
  }

  /**
   * Room for one more push of `lane` to `incoming`: the push service with the most waiting loses its least urgent,
   * newest one. False when that would be the incoming push itself (it is dropped instead).
   */
  function evictFor(incoming: PushService, lane: PushLane): boolean {
    let largest: PushService | undefined;
    for (const service of services.values()) if (!largest || service.waiting > largest.waiting) largest = service;
    const laneOfVictim = largest && lastLaneOf(largest);
    if (!largest || !laneOfVictim) return false;
    const sameOrLower = PUSH_LANES.indexOf(laneOfVictim) <= PUSH_LANES.indexOf(lane);
    if (largest === incoming && sameOrLower) return false;
    return drop(largest, 'newest');
  }

  return {
    get waiting(): number {
      return waiting;
    },

    add(job: Job): void {
      const service = serviceOf(originOf(job.subscription.endpoint));
      if (service.health === 'stalled' && service.waiting >= STALLED_WAITING_MAX) drop(service, 'oldest');
      if (waiting >= QUEUE_MAX && !evictFor(service, job.options.lane)) {
        deps.dropped();
        return;
      }
      service.lanes[job.options.lane].push(job);
      service.waiting += 1;
      waiting += 1;
      turns[job.options.lane].add(service);
    },

    /** The next push to send: the most urgent lane first, push services with room in turn within it. */
    next(hasRoom: (service: PushService) => boolean): { service: PushService; job: Job } | undefined {
      for (const lane of PUSH_LANES) {
        const inTurn = turns[lane];
        for (const service of inTurn) {
          if (!hasRoom(service)) continue;
          const job = service.lanes[lane].shift() as Job;
          service.waiting -= 1;
          waiting -= 1;
          inTurn.delete(service);
          if (service.lanes[lane].length > 0) inTurn.add(service);
          return { service, job };
        }
      }
      return undefined;
    },

    /** A push service that just stalled keeps STALLED_WAITING_MAX waiting at most (the oldest go). */
    trimStalled(service: PushService): void {
      while (service.waiting > STALLED_WAITING_MAX) drop(service, 'oldest');
    },

    services(): IterableIterator<PushService> {
      return services.values();
    },

    clear(): void {
      for (const service of services.values()) for (const lane of PUSH_LANES) service.lanes[lane].clear();
      services.clear();
      for (const lane of PUSH_LANES) turns[lane].clear();
      waiting = 0;
    },
  };
}

export type SendQueue = ReturnType<typeof sendQueue>;
