/**
 * The call queue as a dispatcher reads it (issue 49): the requests the server answered or pushed, each replaced
 * by its newest version, in the server's one order (waiting by position, high priority first; then taken and
 * transferring, oldest first), the day's ended ones apart, newest first. Each request keeps when this page
 * received it, so that its waiting time ticks on from the server's figure.
 */
import { type DispatchRequest, OPEN_DISPATCH_STATES } from '@talkgroup/protocol';

export interface QueueEntry {
  request: DispatchRequest;
  /** When this page received this version (Date.now()). */
  receivedAt: number;
}

const OPEN: ReadonlySet<string> = new Set(OPEN_DISPATCH_STATES);

export function isOpen(request: DispatchRequest): boolean {
  return OPEN.has(request.state);
}

/** The entries with this version of a request in place of the one it replaces (or added). */
export function upsertEntry(entries: readonly QueueEntry[], entry: QueueEntry): QueueEntry[] {
  const others = entries.filter((known) => known.request.requestId !== entry.request.requestId);
  return [...others, entry];
}

const priorityRank = (request: DispatchRequest) => (request.priority === 'high' ? 0 : 1);

function compareOpen(a: DispatchRequest, b: DispatchRequest): number {
  const waitingA = a.state === 'waiting' ? 0 : 1;
  const waitingB = b.state === 'waiting' ? 0 : 1;
  if (waitingA !== waitingB) return waitingA - waitingB;
  if (waitingA === 0) {
    // Between two pushes two requests may briefly share a place: the server's own rule breaks the tie.
    const byPosition = (a.position ?? Number.MAX_SAFE_INTEGER) - (b.position ?? Number.MAX_SAFE_INTEGER);
    if (byPosition !== 0) return byPosition;
    const byPriority = priorityRank(a) - priorityRank(b);
    if (byPriority !== 0) return byPriority;
  }
  return a.createdAt.localeCompare(b.createdAt) || a.requestId - b.requestId;
}

/** The open requests in queue order, and the ended ones, newest first. */
export function queueOrder(entries: readonly QueueEntry[]): { open: QueueEntry[]; ended: QueueEntry[] } {
  const open = entries.filter((entry) => isOpen(entry.request));
  const ended = entries.filter((entry) => !isOpen(entry.request));
  open.sort((a, b) => compareOpen(a.request, b.request));
  ended.sort((a, b) =>
    (b.request.endedAt ?? b.request.createdAt).localeCompare(a.request.endedAt ?? a.request.createdAt),
  );
  return { open, ended };
}

/** How long it has waited now: the server's figure, plus the time since it was received while it still waits. */
export function waitedNow(entry: QueueEntry, now: number): number {
  const { request } = entry;
  if (request.state !== 'waiting') return request.waitedMs;
  return request.waitedMs + Math.max(0, now - entry.receivedAt);
}

/** Since its first take: how long it has been handled now (it goes on while taken or transferring). */
export function handledNow(entry: QueueEntry, now: number): number | undefined {
  const { request } = entry;
  if (request.handledMs === undefined) return undefined;
  if (request.state !== 'taken' && request.state !== 'transferring') return request.handledMs;
  return request.handledMs + Math.max(0, now - entry.receivedAt);
}

/** What changed for the desk's ear: a request new in the queue, or one just recalled (it waited too long). */
export function newsOf(previous: DispatchRequest | undefined, next: DispatchRequest): 'new' | 'reminded' | null {
  if (next.state !== 'waiting') return null;
  if (next.remindedAt && !previous?.remindedAt) return 'reminded';
  if (!previous) return 'new';
  return null;
}

export type QueueAction = 'take' | 'sendBack' | 'transfer' | 'close';

/** What a dispatcher may do with a request now: an administrator (dispatchesAll) as its holder. */
export function actionsFor(request: DispatchRequest, selfId: number, dispatchesAll: boolean): QueueAction[] {
  const holds = request.heldBy?.userId === selfId || dispatchesAll;
  switch (request.state) {
    case 'waiting':
      return ['take'];
    case 'taken':
      return holds ? ['sendBack', 'transfer', 'close'] : [];
    case 'transferring':
      return holds ? ['close'] : [];
    default:
      return [];
  }
}

/** A duration as "2 min 05 s": its parts (the translation writes them). */
export function durationParts(ms: number): { hours: number; minutes: number; seconds: number } {
  const total = Math.max(0, Math.floor(ms / 1000));
  return { hours: Math.floor(total / 3600), minutes: Math.floor((total % 3600) / 60), seconds: total % 60 };
}

export type DurationT = (
  key: 'queue.duration.seconds' | 'queue.duration.minutes' | 'queue.duration.hours',
  values: Record<string, string | number>,
) => string;

/** "45 s", "2 min 05 s", "1 h 03 min". */
export function formatDuration(t: DurationT, ms: number): string {
  const { hours, minutes, seconds } = durationParts(ms);
  const two = (value: number) => String(value).padStart(2, '0');
  if (hours > 0) return t('queue.duration.hours', { hours, minutes: two(minutes) });
  if (minutes > 0) return t('queue.duration.minutes', { minutes, seconds: two(seconds) });
  return t('queue.duration.seconds', { seconds });
}
