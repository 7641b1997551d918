/**
 * Reports (issue 50): getReport over a known period (reports-world.ts), every figure checked through HTTP on
 * SQLite and PostgreSQL: talk, busy hours across the spring and autumn changes of Europe/Paris and in
 * America/New_York, SOS times and outcomes, the queue's first takes and closes, missed transmissions, peaks;
 * `to` excluded, a private call's hidden channel nowhere; who may ask for which channels.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offsetSegments } from '../src/reports/sql-time.ts';
import { databases, startApp, type TestApp } from './harness.ts';
import { at, FROM, type ReportsWorld, reportsWorld, TO } from './reports-world.ts';

const stats = (count: number, medianMs: number | null, p90Ms: number | null, maxMs: number | null) => ({
  count,
  medianMs,
  p90Ms,
  maxMs,
});
const NONE = stats(0, null, null, null);

/** The 168 cells with these filled in: 'day hour' → [transmissions, talkMs]. */
function hoursWith(filled: Record<string, [number, number]>) {
  return Array.from({ length: 168 }, (_, index) => {
    const day = Math.floor(index / 24) + 1;
    const hour = index % 24;
    const [transmissions, talkMs] = filled[`${day} ${hour}`] ?? [0, 0];
    return { day, hour, transmissions, talkMs };
  });
}

describe('a time zone’s offsets over a period', () => {
  const segments = (zone: string, from: string, to: string) =>
    offsetSegments(zone, Date.parse(from), Date.parse(to)).map(({ startMs, offsetMs }) => [
      new Date(startMs).toISOString(),
      offsetMs / 60_000,
    ]);

  it('finds each change to the millisecond, half-hour ones too, and none outside the period', () => {
    expect(segments('Europe/Paris', '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z')).toEqual([
      ['2026-01-01T00:00:00.000Z', 60],
      ['2026-03-29T01:00:00.000Z', 120],
      ['2026-10-25T01:00:00.000Z', 60],
    ]);
    expect(segments('Australia/Lord_Howe', '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z')).toEqual([
      ['2026-01-01T00:00:00.000Z', 660],
      ['2026-04-04T15:00:00.000Z', 630],
      ['2026-10-03T15:30:00.000Z', 660],
    ]);
    expect(segments('Europe/Paris', '2026-03-29T01:00:00Z', '2026-03-30T00:00:00Z')).toEqual([
      ['2026-03-29T01:00:00.000Z', 120],
    ]);
    expect(segments('Europe/Paris', '2026-03-28T00:00:00Z', '2026-03-29T01:00:00Z')).toEqual([
      ['2026-03-28T00:00:00.000Z', 60],
    ]);
    expect(segments('Asia/Kolkata', '2026-01-01T00:00:00Z', '2036-01-01T00:00:00Z')).toEqual([
      ['2026-01-01T00:00:00.000Z', 330],
    ]);
  });
});

describe.each(databases)('reports on %s', (dialect) => {
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

  it('answers every measure of the period for an administrator (Europe/Paris)', async () => {
    const { status, body } = await report(w.admin.token);
    expect(status).toBe(200);
    const res = body.res;
    expect(res.from).toBe(FROM);
    expect(res.to).toBe(TO);
    expect(res.timeZone).toBe('Europe/Paris');
    expect(res.channels).toEqual([
      { id: w.alpha, name: 'alpha' },
      { id: w.bravo, name: 'bravo' },
    ]);
    expect(res.talk).toEqual({
      channels: [
        { channelId: w.alpha, channelName: 'alpha', talkMs: 13_000, transmissions: 4 },
        { channelId: w.bravo, channelName: 'bravo', talkMs: 4_000, transmissions: 2 },
      ],
      members: [
        { userId: w.mia.id, name: 'Mia Field', talkMs: 7_000, transmissions: 2 },
        { userId: w.noah.id, name: 'Noah Far', talkMs: 6_000, transmissions: 1 },
        { userId: w.ben.id, name: 'Ben Bravo', talkMs: 3_000, transmissions: 1 },
        { userId: null, name: 'Gone Person', talkMs: 1_000, transmissions: 1 },
        { userId: w.desk.id, name: 'Dana Desk', talkMs: 0, transmissions: 1 },
      ],
    });
    // Saturday 13:00 (UTC+1); Sunday 01:30 (UTC+1, before the change), 03:30 and 04:30 (UTC+2, after it).
    expect(res.hours).toEqual(
      hoursWith({
        '6 13': [1, 5_000],
        '6 21': [1, 1_000],
        '7 1': [1, 2_000],
        '7 3': [1, 6_000],
        '7 4': [2, 3_000],
      }),
    );
    expect(res.sos).toEqual({
      count: 5,
      acknowledged: 4,
      closed: 3,
      real: 1,
      falseAlarms: 2,
      manDown: 1,
      noResponse: 1,
      acknowledge: stats(4, 20_000, 40_000, 40_000),
      close: stats(3, 120_000, 300_000, 300_000),
      channels: [
        {
          channelId: w.alpha,
          channelName: 'alpha',
          count: 3,
          falseAlarms: 1,
          manDown: 0,
          noResponse: 0,
          acknowledge: stats(3, 20_000, 30_000, 30_000),
          close: stats(2, 60_000, 120_000, 120_000),
        },
        {
          channelId: null,
          channelName: '',
          count: 1,
          falseAlarms: 1,
          manDown: 1,
          noResponse: 0,
          acknowledge: stats(1, 40_000, 40_000, 40_000),
          close: stats(1, 300_000, 300_000, 300_000),
        },
        {
          channelId: w.bravo,
          channelName: 'bravo',
          count: 1,
          falseAlarms: 0,
          manDown: 0,
          noResponse: 1,
          acknowledge: NONE,
          close: NONE,
        },
      ],
    });
    // Every column of the queue, its rows against its total and its dispatchers: reports-queue.test.ts.
    expect(res.queue).toMatchObject({ requests: 6, taken: 3, closed: 4 });
    expect(res.missed).toEqual([
      { userId: w.desk.id, name: 'Dana Desk', heardLater: 1, neverHeard: 1 },
      { userId: w.noah.id, name: 'Noah Far', heardLater: 1, neverHeard: 1 },
      { userId: w.ben.id, name: 'Ben Bravo', heardLater: 1, neverHeard: 0 },
      { userId: w.late.id, name: 'Lou Late', heardLater: 0, neverHeard: 1 },
      { userId: w.mia.id, name: 'Mia Field', heardLater: 0, neverHeard: 1 },
      { userId: w.otherDesk.id, name: 'Olly Other', heardLater: 0, neverHeard: 1 },
    ]);
    // 23:30 UTC on the 28th is already the 29th in Paris; of two samples at 5, the first reach is kept.
    expect(res.peaks).toEqual([
      { day: '2026-03-28', connected: 5, at: at('28T15:00:10') },
      { day: '2026-03-29', connected: 7, at: at('28T23:30:30') },
    ]);
  });

  it('gives other days and hours in America/New_York (UTC−4) and in UTC', async () => {
    const newYork = (await report(w.admin.token, { timeZone: 'America/New_York' })).body.res;
    expect(newYork.timeZone).toBe('America/New_York');
    expect(newYork.hours).toEqual(
      hoursWith({
        '6 8': [1, 5_000],
        '6 16': [1, 1_000],
        '6 20': [1, 2_000],
        '6 21': [1, 6_000],
        '6 22': [2, 3_000],
      }),
    );
    expect(newYork.peaks).toEqual([{ day: '2026-03-28', connected: 7, at: at('28T23:30:30') }]);
    const utc = (await report(w.admin.token, { timeZone: 'UTC' })).body.res;
    expect(utc.hours).toEqual(
      hoursWith({ '6 12': [1, 5_000], '6 20': [1, 1_000], '7 0': [1, 2_000], '7 1': [1, 6_000], '7 2': [2, 3_000] }),
    );
    expect(utc.peaks).toEqual([
      { day: '2026-03-28', connected: 7, at: at('28T23:30:30') },
      { day: '2026-03-29', connected: 4, at: at('29T01:30:15') },
    ]);
  });

  it('puts both 02:30 of the autumn change in the same local hour of Europe/Paris', async () => {
    const grant = (started: string, lengthMs: number) =>
      app.services.db
        .insertInto('talk_bursts')
        .values({
          user_id: w.mia.id,
          channel_id: w.alpha,
          channel_name: 'alpha',
          started_at: started,
          ended_at: new Date(Date.parse(started) + lengthMs).toISOString(),
        })
        .execute();
    await grant('2026-10-24T23:30:00.000Z', 1_000);
    await grant('2026-10-25T00:30:00.000Z', 2_000);
    await grant('2026-10-25T01:30:00.000Z', 4_000);
    const period = { from: '2026-10-24T12:00:00.000Z', to: '2026-10-26T00:00:00.000Z' };
    const paris = (await report(w.admin.token, period)).body.res;
    // 01:30 and 02:30 at UTC+2, then 02:30 again at UTC+1.
    expect(paris.hours).toEqual(hoursWith({ '7 1': [1, 1_000], '7 2': [2, 6_000] }));
    expect(paris.talk.channels).toEqual([
      { channelId: w.alpha, channelName: 'alpha', talkMs: 7_000, transmissions: 3 },
    ]);
    const newYork = (await report(w.admin.token, { ...period, timeZone: 'America/New_York' })).body.res;
    expect(newYork.hours).toEqual(hoursWith({ '6 19': [1, 1_000], '6 20': [1, 2_000], '6 21': [1, 4_000] }));
  });

  it('narrows an administrator’s report to the channels asked; 404 for a channel that is not one', async () => {
    const { status, body } = await report(w.admin.token, { channelIds: [w.bravo] });
    expect(status).toBe(200);
    expect(body.res.channels).toEqual([{ id: w.bravo, name: 'bravo' }]);
    expect(body.res.talk.channels).toEqual([
      { channelId: w.bravo, channelName: 'bravo', talkMs: 4_000, transmissions: 2 },
    ]);
    expect(body.res.sos.count).toBe(1);
    expect(body.res.sos.channels.map((row: { channelId: number }) => row.channelId)).toEqual([w.bravo]);
    expect(body.res.queue.requests).toBe(1);
    expect(body.res.missed.map((row: { name: string }) => row.name)).toEqual(['Ben Bravo', 'Lou Late', 'Olly Other']);
    for (const channelIds of [[w.hidden], [999_999]]) {
      const refused = await report(w.admin.token, { channelIds });
      expect(refused.status).toBe(404);
      expect(refused.body.code).toBe('channel_not_found');
    }
  });

  it('gives a dispatcher its own channels only, and 403 for another’s', async () => {
    const { status, body } = await report(w.desk.token);
    expect(status).toBe(200);
    const res = body.res;
    expect(res.channels).toEqual([{ id: w.alpha, name: 'alpha' }]);
    expect(res.talk).toEqual({
      channels: [{ channelId: w.alpha, channelName: 'alpha', talkMs: 13_000, transmissions: 4 }],
      members: [
        { userId: w.mia.id, name: 'Mia Field', talkMs: 7_000, transmissions: 2 },
        { userId: w.noah.id, name: 'Noah Far', talkMs: 6_000, transmissions: 1 },
        { userId: w.desk.id, name: 'Dana Desk', talkMs: 0, transmissions: 1 },
      ],
    });
    expect(res.hours).toEqual(hoursWith({ '6 13': [1, 5_000], '7 1': [1, 2_000], '7 3': [1, 6_000], '7 4': [1, 0] }));
    expect(res.sos).toEqual({
      count: 3,
      acknowledged: 3,
      closed: 2,
      real: 1,
      falseAlarms: 1,
      manDown: 0,
      noResponse: 0,
      acknowledge: stats(3, 20_000, 30_000, 30_000),
      close: stats(2, 60_000, 120_000, 120_000),
      channels: [
        {
          channelId: w.alpha,
          channelName: 'alpha',
          count: 3,
          falseAlarms: 1,
          manDown: 0,
          noResponse: 0,
          acknowledge: stats(3, 20_000, 30_000, 30_000),
          close: stats(2, 60_000, 120_000, 120_000),
        },
      ],
    });
    expect(res.queue).toMatchObject({
      requests: 5,
      taken: 2,
      abandoned: 1,
      expired: 1,
      cancelled: 1,
      closed: 3,
      waiting: stats(2, 30_000, 60_000, 60_000),
      handling: stats(3, 1_140_000, 2_700_000, 2_700_000),
    });
    expect(res.queue.channels.map((row: { channelId: number }) => row.channelId)).toEqual([w.alpha]);
    // Only its channel's steps: Olly's in bravo are not its to read.
    expect(res.queue.dispatchers.map((row: { name: string; taken: number }) => [row.name, row.taken])).toEqual([
      ['Dana Desk', 4],
    ]);
    expect(res.missed).toEqual([
      { userId: w.desk.id, name: 'Dana Desk', heardLater: 1, neverHeard: 1 },
      { userId: w.noah.id, name: 'Noah Far', heardLater: 1, neverHeard: 1 },
      { userId: w.mia.id, name: 'Mia Field', heardLater: 0, neverHeard: 1 },
    ]);

    const own = await report(w.desk.token, { channelIds: [w.alpha] });
    expect(own.body.res.talk).toEqual(res.talk);
    for (const channelIds of [[w.bravo], [w.alpha, w.bravo], [999_999]]) {
      const refused = await report(w.desk.token, { channelIds });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('report_channel_not_allowed');
      expect(refused.body.result).toContain(String(channelIds.at(-1)));
    }
  });

  it('refuses a member (403), and without a token (401)', async () => {
    const member = await report(w.mia.token);
    expect(member.status).toBe(403);
    expect(member.body.code).toBe('not_allowed');
    expect((await app.call('/user/api/getReport', { from: FROM, to: TO })).status).toBe(401);
  });

  it('answers 400 for a period that ends before it starts, a bad time zone or instant', async () => {
    for (const body of [
      { from: TO, to: FROM },
      { from: FROM, to: FROM },
      { timeZone: 'Mars/Olympus_Mons' },
      { from: '2026-03-28' },
    ]) {
      const refused = await report(w.admin.token, body);
      expect(refused.status).toBe(400);
      expect(refused.body.success).toBe(false);
    }
  });

  it('takes the organisation’s time zone when none is asked, by default the server’s', async () => {
    const bare = { from: FROM, to: TO };
    const server = (await app.call('/user/api/getReport', bare, w.admin.token)).body.res;
    expect(server.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    const set = await app.call('/user/api/setTimeZone', { timeZone: 'America/New_York' }, w.admin.token);
    expect(set.status).toBe(200);
    try {
      const organisation = (await app.call('/user/api/getReport', bare, w.desk.token)).body.res;
      expect(organisation.timeZone).toBe('America/New_York');
      expect(organisation.hours.filter((cell: { transmissions: number }) => cell.transmissions > 0)).toEqual([
        { day: 6, hour: 8, transmissions: 1, talkMs: 5_000 },
        { day: 6, hour: 20, transmissions: 1, talkMs: 2_000 },
        { day: 6, hour: 21, transmissions: 1, talkMs: 6_000 },
        { day: 6, hour: 22, transmissions: 1, talkMs: 0 },
      ]);
    } finally {
      await app.call('/user/api/setTimeZone', { timeZone: null }, w.admin.token);
    }
  });
});
