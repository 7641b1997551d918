/**
 * Background threads yield the CPU to the real-time ones (issue 57): the report readers' threads run at
 * BACKGROUND_NICE (Linux's nice is a thread's own); the main thread and the hash pool's keep theirs.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPool } from '../src/auth/hash-pool.ts';
import { openDatabase } from '../src/db/open.ts';
import { BACKGROUND_NICE } from '../src/process/thread-priority.ts';
import { readerThreads } from '../src/reports/reader-threads.ts';
import type { ReportScope } from '../src/reports/scope.ts';

/** The nice value of each thread of this process, by thread id (Linux's /proc). */
function niceOfThreads(): Map<string, number> {
  const nice = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      nice.set(tid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return nice;
}

const backgroundThreads = () => [...niceOfThreads().values()].filter((value) => value === BACKGROUND_NICE).length;
const mainNice = () => niceOfThreads().get(String(process.pid));

describe.skipIf(process.platform !== 'linux')('background threads', () => {
  const cleanups: Array<() => unknown> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it("run a report reader's thread at a lower priority than the main thread, and not the hash pool's", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tg-nice-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const database = await openDatabase({ dataDir: dir } as never);
    cleanups.push(() => database.close());
    const before = backgroundThreads();
    if (database.location.dialect !== 'sqlite') throw new Error('a SQLite database was expected');
    const reader = readerThreads(database.location.file);
    cleanups.push(() => reader.close());
    const scope: ReportScope = {
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-02-01T00:00:00.000Z',
      channelIds: null,
      timeZone: 'Europe/Paris',
    };
    await reader.read(scope);
    expect(backgroundThreads()).toBe(before + 1);
    expect(mainNice()).not.toBe(BACKGROUND_NICE);
    const pool = hashPool(1);
    cleanups.push(() => pool.stop());
    await pool.hash('a-secret-to-hash');
    expect(backgroundThreads()).toBe(before + 1);
  });
});
