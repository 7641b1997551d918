import type { LoneWorker } from '@talkgroup/protocol';
import { describe, expect, it } from 'vitest';
import { withChange } from './loneWorkerList.ts';

const worker = (userId: number, state: LoneWorker['state']): LoneWorker => ({
  userId,
  name: `Worker ${userId}`,
  state,
  nextCheckAt: '2026-11-29T06:00:00.000Z',
  lastCheckIn: '2026-11-29T05:30:00.000Z',
  startedAt: '2026-11-29T05:00:00.000Z',
  intervalSeconds: 1800,
  graceSeconds: 120,
  required: false,
});

describe('a pushed lone-work change', () => {
  const page = { success: true, res: [worker(1, 'ok'), worker(2, 'due')] };

  it("replaces the member's state, adds a member who started, and drops one who stopped", () => {
    expect(withChange(page, { userId: 2, worker: worker(2, 'missed') })?.res.map((w) => [w.userId, w.state])).toEqual([
      [1, 'ok'],
      [2, 'missed'],
    ]);
    expect(withChange(page, { userId: 3, worker: worker(3, 'ok') })?.res.map((w) => w.userId)).toEqual([1, 2, 3]);
    expect(withChange(page, { userId: 1, worker: null })?.res.map((w) => w.userId)).toEqual([2]);
  });

  it('waits for the first read: nothing to change before it', () => {
    expect(withChange(undefined, { userId: 1, worker: worker(1, 'ok') })).toBeUndefined();
  });
});
