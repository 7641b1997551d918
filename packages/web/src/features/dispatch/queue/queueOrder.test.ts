/** The call queue as the desk reads it: the server's order, each request replaced by its newest version, the ticking time. */
import type { DispatchRequest } from '@talkgroup/protocol';
import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import de from '../../../i18n/locales/de/dispatch.json';
import en from '../../../i18n/locales/en/dispatch.json';
import fr from '../../../i18n/locales/fr/dispatch.json';
import {
  actionsFor,
  type DurationT,
  formatDuration,
  handledNow,
  newsOf,
  type QueueEntry,
  queueOrder,
  upsertEntry,
  waitedNow,
} from './queueOrder.ts';

let nextId = 1;
function request(overrides: Partial<DispatchRequest> = {}): DispatchRequest {
  const requestId = overrides.requestId ?? nextId++;
  return {
    requestId,
    channelId: 1,
    channelName: 'Quai',
    requester: { userId: 100 + requestId, name: `Member ${requestId}` },
    priority: 'normal',
    note: '',
    state: 'waiting',
    position: null,
    waitedMs: 0,
    createdAt: `2026-11-26T10:00:${String(requestId).padStart(2, '0')}.000Z`,
    ...overrides,
  };
}
const entry = (r: DispatchRequest, receivedAt = 0): QueueEntry => ({ request: r, receivedAt });
const ids = (entries: QueueEntry[]) => entries.map((e) => e.request.requestId);

describe('the queue order', () => {
  it('puts waiting requests by position, then taken and transferring ones oldest first, ended ones apart newest first', () => {
    const entries = [
      entry(request({ requestId: 1, state: 'taken', heldBy: { userId: 9, name: 'Dana' } })),
      entry(request({ requestId: 2, state: 'waiting', position: 2 })),
      entry(request({ requestId: 3, state: 'closed', endedAt: '2026-11-26T10:05:00.000Z' })),
      entry(request({ requestId: 4, state: 'waiting', position: 1, priority: 'high' })),
      entry(request({ requestId: 5, state: 'transferring' })),
      entry(request({ requestId: 6, state: 'expired', endedAt: '2026-11-26T10:30:00.000Z' })),
    ];
    const { open, ended } = queueOrder(entries);
    expect(ids(open)).toEqual([4, 2, 1, 5]);
    expect(ids(ended)).toEqual([6, 3]);
  });

  it('breaks a tie between two pushes the way the server orders: high priority first, then oldest', () => {
    const { open } = queueOrder([
      entry(request({ requestId: 7, position: 1 })),
      entry(request({ requestId: 8, position: 1, priority: 'high' })),
      entry(request({ requestId: 9, position: 1 })),
    ]);
    expect(ids(open)).toEqual([8, 7, 9]);
  });

  it('replaces a request by its newest version, by requestId', () => {
    const first = [entry(request({ requestId: 10, position: 1 })), entry(request({ requestId: 11, position: 2 }))];
    const next = upsertEntry(
      first,
      entry(request({ requestId: 10, state: 'taken', heldBy: { userId: 1, name: 'Sam' } })),
    );
    expect(next).toHaveLength(2);
    expect(next.find((e) => e.request.requestId === 10)?.request.state).toBe('taken');
    expect(upsertEntry(next, entry(request({ requestId: 12 })))).toHaveLength(3);
  });
});

describe('the time a request waited', () => {
  it('ticks on from the server figure while it waits, and stops once taken', () => {
    const waiting = entry(request({ waitedMs: 65_000 }), 1_000);
    expect(waitedNow(waiting, 1_000)).toBe(65_000);
    expect(waitedNow(waiting, 3_500)).toBe(67_500);
    const taken = entry(request({ state: 'taken', waitedMs: 65_000, handledMs: 2_000 }), 1_000);
    expect(waitedNow(taken, 9_000)).toBe(65_000);
    expect(handledNow(taken, 9_000)).toBe(10_000);
    expect(handledNow(entry(request({ state: 'closed', handledMs: 2_000 }), 1_000), 9_000)).toBe(2_000);
  });

  it.each([
    ['fr', fr, ['45 s', '2 min 05 s', '1 h 03 min']],
    ['en', en, ['45 s', '2 min 05 s', '1 h 03 min']],
    ['de', de, ['45 s', '2 min 05 s', '1 h 03 min']],
  ] as const)('reads as "2 min 05 s" in %s', async (language, catalogue, expected) => {
    const i18n = createInstance();
    await i18n.init({ lng: language, resources: { [language]: { dispatch: catalogue } }, defaultNS: 'dispatch' });
    const t = i18n.getFixedT(language, 'dispatch') as unknown as DurationT;
    expect([45_400, 125_999, 3_780_000].map((ms) => formatDuration(t, ms))).toEqual(expected);
    expect(formatDuration(t, -5)).toBe('0 s');
  });
});

describe('what the desk hears', () => {
  it('chimes for a new waiting request and calls louder when one is recalled, once', () => {
    const fresh = request({ requestId: 20 });
    expect(newsOf(undefined, fresh)).toBe('new');
    const reminded = { ...fresh, remindedAt: '2026-11-26T10:01:00.000Z' };
    expect(newsOf(fresh, reminded)).toBe('reminded');
    expect(newsOf(reminded, { ...reminded, position: 2 })).toBeNull();
    expect(newsOf(fresh, { ...fresh, position: 3 })).toBeNull();
    expect(newsOf(fresh, { ...fresh, state: 'taken' })).toBeNull();
  });
});

describe('what a dispatcher may do with a request', () => {
  it('takes a waiting one; sends back, transfers and closes one it holds; leaves another holder alone unless it dispatches everywhere', () => {
    expect(actionsFor(request(), 1, false)).toEqual(['take']);
    const mine = request({ state: 'taken', heldBy: { userId: 1, name: 'Dana' } });
    expect(actionsFor(mine, 1, false)).toEqual(['sendBack', 'transfer', 'close']);
    expect(actionsFor(mine, 2, false)).toEqual([]);
    expect(actionsFor(mine, 2, true)).toEqual(['sendBack', 'transfer', 'close']);
    expect(actionsFor({ ...mine, state: 'transferring' }, 1, false)).toEqual(['close']);
    expect(actionsFor(request({ state: 'closed' }), 1, true)).toEqual([]);
  });
});
