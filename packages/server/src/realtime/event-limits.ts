/**
 * Rate limits of a socket's events, per socket and per event kind (a token bucket each): a flood of one kind
 * is refused at the door, before it queues behind the socket's other events, and the rest keeps working.
 */
import { MAX_PARTICIPATIONS } from '@talkgroup/protocol';

export interface EventBudget {
  /** Events that may arrive at once. */
  burst: number;
  /** Events per second over time. */
  perSecond: number;
}

/**
 * WebRTC signalling comes in bursts (a candidate per network path and peer); a desk joins (and rejoins, after
 * a reconnection) all its channels at once; chat and alerts are human.
 */
export const EVENT_BUDGETS: Record<string, EventBudget> = {
  join_room: { burst: MAX_PARTICIPATIONS + 8, perSecond: 20 },
  leave_room: { burst: MAX_PARTICIPATIONS + 8, perSecond: 20 },
  offer: { burst: 60, perSecond: 20 },
  answer: { burst: 60, perSecond: 20 },
  candidate: { burst: 300, perSecond: 100 },
  // A desk offers to the media server in each of its channels at once, and again after a reset.
  media_offer: { burst: MAX_PARTICIPATIONS + 8, perSecond: 20 },
  media_watch: { burst: MAX_PARTICIPATIONS + 8, perSecond: 20 },
  media_answer: { burst: MAX_PARTICIPATIONS + 8, perSecond: 20 },
  media_candidate: { burst: 300, perSecond: 100 },
  message: { burst: 30, perSecond: 10 },
  'message created': { burst: 30, perSecond: 10 },
  typing: { burst: 20, perSecond: 5 },
  onLocationChanged: { burst: 10, perSecond: 2 },
  // Issue 60: a report on each change of the phone (battery, network, screen), a few a minute at most.
  device_status: { burst: 10, perSecond: 1 },
  ambient_candidate: { burst: 100, perSecond: 50 },
  // Issue 61: a sharer's page offers to each of its viewers (4 at most) at once, a candidate per path and viewer.
  video_offer: { burst: 20, perSecond: 10 },
  video_answer: { burst: 20, perSecond: 10 },
  video_candidate: { burst: 200, perSecond: 100 },
  video_start: { burst: 10, perSecond: 2 },
  // Through the media server: one offer per stream, and a layer at each full view opened or closed.
  video_publish: { burst: 10, perSecond: 2 },
  video_layer: { burst: 20, perSecond: 5 },
  video_watch: { burst: 20, perSecond: 5 },
};

export const DEFAULT_EVENT_BUDGET: EventBudget = { burst: 30, perSecond: 10 };

export function eventLimits(budgets: Record<string, EventBudget> = EVENT_BUDGETS, fallback = DEFAULT_EVENT_BUDGET) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    /** True when the event may run now (and counts it). */
    take(event: string, now = performance.now()): boolean {
      const budget = budgets[event] ?? fallback;
      const bucket = buckets.get(event) ?? { tokens: budget.burst, at: now };
      bucket.tokens = Math.min(budget.burst, bucket.tokens + ((now - bucket.at) / 1000) * budget.perSecond);
      bucket.at = now;
      buckets.set(event, bucket);
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
  };
}
