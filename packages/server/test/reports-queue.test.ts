/**
 * The reports' dispatch queue (issue 50, issue 58) over the known period of reports-world.ts, through HTTP on
 * SQLite and PostgreSQL: each channel's row carries every column of the total (cancelled, closed, the outcomes,
 * the handling times) and the rows add up to it; `queue.dispatchers` counts each dispatcher's takes (a retake
 * after a send-back included), send-backs, transfers and closes, and the handling times of its closes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startApp, type TestApp } from './harness.ts';
import { FROM, type ReportsWorld, reportsWorld, TO } from './reports-world.ts';

const stats = (count: number, medianMs: number | null, p90Ms: number | null, maxMs: number | null) => ({
  count,
  medianMs,
  p90Ms,
  maxMs,
});

describe.each(databases)("the reports' queue on %s", (dialect) => {
  let app: TestApp;
  let w: ReportsWorld;

  beforeAll(async () => {
    app = await startApp(dialect);
    w = await reportsWorld(app);
  });
  afterAll(async () => {
    await app.close();
  });

  const report = (token: string, body: Record<string, unknown> = {}) =>
    app.call('/user/api/getReport', { from: FROM, to: TO, timeZone: 'Europe/Paris', ...body }, token);

  it('gives each channel every column of the total, the rows adding up to it, and each dispatcher its steps', async () => {
    const { status, body } = await report(w.admin.token);
    expect(status).toBe(200);
    const res = body.res;
    expect(res.queue).toEqual({
      requests: 6,
      taken: 3,
      abandoned: 1,
      expired: 1,
      cancelled: 1,
      closed: 4,
      outcomes: { resolved: 1, no_action: 1, referred: 1 },
      waiting: stats(3, 60_000, 120_000, 120_000),
      handling: stats(4, 480_000, 2_700_000, 2_700_000),
      channels: [
        {
          channelId: w.alpha,
          channelName: 'alpha',
          requests: 5,
          taken: 2,
          abandoned: 1,
          expired: 1,
          cancelled: 1,
          closed: 3,
          outcomes: { resolved: 1, no_action: 1, referred: 1 },
          waiting: stats(2, 30_000, 60_000, 60_000),
          handling: stats(3, 1_140_000, 2_700_000, 2_700_000),
        },
        {
          channelId: w.bravo,
          channelName: 'bravo',
          requests: 1,
          taken: 1,
          abandoned: 0,
          expired: 0,
          cancelled: 0,
          closed: 1,
          outcomes: { resolved: 0, no_action: 0, referred: 0 },
          waiting: stats(1, 120_000, 120_000, 120_000),
          handling: stats(1, 480_000, 480_000, 480_000),
        },
      ],
      // Dana: five takes (r1's retake after its send-back, r6's retake in the period, r7 before its transfer),
      // r1 sent back, r7 transferred, three closed; Olly took r7 over and closed it.
      dispatchers: [
        {
          userId: w.desk.id,
          name: 'Dana Desk',
          taken: 5,
          returned: 1,
          transferred: 1,
          closed: 3,
          handling: stats(3, 1_140_000, 2_700_000, 2_700_000),
        },
        {
          userId: w.otherDesk.id,
          name: 'Olly Other',
          taken: 1,
          returned: 0,
          transferred: 0,
          closed: 1,
          handling: stats(1, 480_000, 480_000, 480_000),
        },
      ],
    });
    // The rows add up to the total, column by column.
    const { channels: rows, dispatchers: _dispatchers, waiting: _waiting, handling: _handling, ...total } = res.queue;
    for (const [field, value] of Object.entries(total)) {
      if (field === 'outcomes')
        for (const [outcome, count] of Object.entries(value as Record<string, number>))
          expect(
            rows.reduce((sum: number, row: any) => sum + row.outcomes[outcome], 0),
            outcome,
          ).toBe(count);
      else
        expect(
          rows.reduce((sum: number, row: any) => sum + row[field], 0),
          field,
        ).toBe(value);
    }
    for (const measure of ['waiting', 'handling'] as const)
      expect(
        rows.reduce((sum: number, row: any) => sum + row[measure].count, 0),
        measure,
      ).toBe(res.queue[measure].count);
  });
});
