/**
 * Where reports read (issue 57, reports/reader.ts): on SQLite in a worker thread with a read-only connection of
 * its own, on PostgreSQL on a pool of its own, never on the server's connection; the main thread keeps serving
 * while a report reads; one report per user and two per server at a time (429); a reader thread that dies
 * answers 503 and the next report reads again.
 *
 * A report is held in its thread by the reader's `hold` (reader-thread.ts): the thread blocks there as in a long
 * synchronous read, and the tests wait on that state, never on a time.
 */
import { threadId } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ReadReport, type ReportReader, reportReader } from '../src/reports/reader.ts';
import { readerThreads } from '../src/reports/reader-threads.ts';
import type { ReportScope } from '../src/reports/scope.ts';
import { reportMeasures } from '../src/reports/store.ts';
import { databases, startApp, type TestApp } from './harness.ts';
import { FROM, type ReportsWorld, reportsWorld, TO } from './reports-world.ts';

const SCOPE = { from: FROM, to: TO, timeZone: 'Europe/Paris' };
/** A bound, not a timing: a thread's first start loads its modules, slower on a loaded machine. */
const UNTIL = { timeout: 30_000, interval: 5 };

/** What a spied reader's first read gave. */
async function firstRead(read: { mock: { results: Array<{ value: unknown }> } }): Promise<ReadReport> {
  const [result] = read.mock.results;
  if (!result) throw new Error('the reader read nothing');
  return (await result.value) as ReadReport;
}

/** A hold for the reader's threads: word 0 is 0 (wait), 1 (read on) or 2 (end the thread); word 1 counts holds. */
function hold() {
  const words = new Int32Array(new SharedArrayBuffer(8));
  const tell = (word: 1 | 2) => {
    Atomics.store(words, 0, word);
    Atomics.notify(words, 0);
  };
  return {
    words,
    held: () => Atomics.load(words, 1),
    release: () => tell(1),
    crash: () => tell(2),
  };
}

describe.each(databases)('reports read apart from the server on %s', (dialect) => {
  let app: TestApp;
  let w: ReportsWorld;
  let ownReader: ReportReader;

  beforeAll(async () => {
    app = await startApp(dialect);
    w = await reportsWorld(app);
    ownReader = app.services.reportReader;
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    if (app.services.reportReader !== ownReader) await app.services.reportReader.close();
    app.services.reportReader = ownReader;
  });
  afterAll(async () => {
    await app.close();
  });

  const report = (token: string) => app.call('/user/api/getReport', SCOPE, token);
  /** What the store computes on the main thread's connection for the scope a reader was given. */
  const onMainThread = (scope: ReportScope) => reportMeasures(app.services.reports, scope);

  it('reads a report on a connection of its own, off the server’s: on SQLite in another thread', async () => {
    expect(app.services.reportReader.where).toBe(dialect === 'sqlite' ? 'threads' : 'pool');
    // The server's own report store (on its own connection): the reader must not call it. Counted by its methods,
    // not by the connection's queries, which a background sweep on a loaded machine may add to at any time.
    const store = app.services.reports as unknown as Record<string, unknown>;
    const storeCalls = Object.keys(store)
      .filter((name) => typeof store[name] === 'function')
      .map((name) => vi.spyOn(store as Record<string, (...args: unknown[]) => unknown>, name));
    const callsOfStore = () => storeCalls.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
    const read = vi.spyOn(app.services.reportReader, 'read');

    const answer = await report(w.admin.token);
    expect(callsOfStore()).toBe(0);
    expect(answer.status).toBe(200);
    const scope = read.mock.calls[0]?.[0] as ReportScope;
    const { measures, threadId: readOn } = await firstRead(read);
    expect(threadId).toBe(0);
    if (dialect === 'sqlite') expect(readOn).not.toBe(0);
    const expected = await onMainThread(scope);
    expect(measures).toEqual(expected);
    expect(answer.body.res).toEqual({ from: FROM, to: TO, timeZone: 'Europe/Paris', ...expected });

    // The same report read on the server's own connection runs its measures on the server's store: the reader's
    // ran none of them.
    app.services.reportReader = reportReader({ dialect: 'sqlite', file: ':memory:' }, app.services.reports);
    const before = callsOfStore();
    expect((await report(w.admin.token)).body.res).toEqual(answer.body.res);
    expect(callsOfStore()).toBeGreaterThan(before);
  });

  it('answers a second report of the same user 429 report_running, a third across the server 429 reports_busy', async () => {
    const { promise: released, resolve: release } = Promise.withResolvers<void>();
    const readThrough = app.services.reportReader.read;
    const read = vi.spyOn(app.services.reportReader, 'read').mockImplementation(async (scope) => {
      await released;
      return readThrough(scope);
    });

    const first = report(w.admin.token);
    await vi.waitFor(() => expect(read).toHaveBeenCalledTimes(1), UNTIL);
    const again = await report(w.admin.token);
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({ success: false, code: 'report_running', params: { seconds: 5 } });
    expect(again.body.result).toBe('Your previous report is still being computed: wait 5 seconds and try again.');

    const second = report(w.desk.token);
    await vi.waitFor(() => expect(read).toHaveBeenCalledTimes(2), UNTIL);
    const third = await report(w.otherDesk.token);
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ success: false, code: 'reports_busy', params: { seconds: 5 } });
    expect(read).toHaveBeenCalledTimes(2);

    release();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    // Each refusal lasted only while the others ran.
    expect((await report(w.admin.token)).status).toBe(200);
    expect((await report(w.otherDesk.token)).status).toBe(200);
  });

  it.runIf(dialect === 'sqlite')('keeps serving on the main thread while a report reads in its thread', async () => {
    const { words, held, release } = hold();
    const file = (app.services.database.location as { file: string }).file;
    app.services.reportReader = readerThreads(file, { hold: words });
    let answered = false;
    const pending = report(w.admin.token).then((answer) => {
      answered = true;
      return answer;
    });
    await vi.waitFor(() => expect(held()).toBe(1), UNTIL);

    // The report's thread is blocked mid-report; the main thread answers, turns its loop and writes meanwhile.
    const health = await app.fastify.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    await new Promise<void>((resolve) => setImmediate(resolve));
    const channel = await app.call('/user/api/createChannel', { channelName: 'written meanwhile' }, w.admin.token);
    expect(channel.status).toBe(200);
    expect(answered).toBe(false);
    expect(held()).toBe(1);

    release();
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(answer.body.res.talk.channels.length).toBeGreaterThan(0);
  });

  it.runIf(dialect === 'sqlite')('answers 503 when the reading thread dies; the next report reads', async () => {
    const { words, held, crash } = hold();
    const file = (app.services.database.location as { file: string }).file;
    app.services.reportReader = readerThreads(file, { hold: words });
    const pending = report(w.admin.token);
    await vi.waitFor(() => expect(held()).toBe(1), UNTIL);

    crash();
    const failed = await pending;
    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({ success: false, code: 'report_reader_failed' });

    // The crash told the hold to let the next thread read on.
    const next = await report(w.admin.token);
    expect(next.status).toBe(200);
    expect(held()).toBe(2);
    const read = vi.spyOn(app.services.reportReader, 'read');
    const again = await report(w.desk.token);
    expect(again.status).toBe(200);
    expect((await firstRead(read)).threadId).not.toBe(0);
  });
});
