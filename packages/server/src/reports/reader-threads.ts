/**
 * SQLite's report reader (issue 57): reports read on worker threads (reader-thread.ts), each with a read-only
 * connection of its own to the database file, so that a year's report (seconds of synchronous node:sqlite work)
 * never stops the main thread's sockets, floor and HTTP. As many threads as reports may run at once, at most one
 * fewer than the machine has cores; a report waits here for a free one.
 *
 * A thread starts on first use and ends after a minute idle. One that dies (a crash, its memory) answers its
 * report 503 `report_reader_failed`, is logged, and the next report starts another: never the process's end.
 *
 * The threads run the server's TypeScript through the same module hook as the main thread (stripped-sources.js):
 * the stripped copies when `npm start` made them, never Node's stripper in the server's memory.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { HttpError } from '../http/errors.ts';
import { startServerThread } from '../process/worker-thread.ts';
import { REPORTS_AT_ONCE } from './gate.ts';
import type { ReaderThreadAnswer, ReaderThreadData } from './reader-thread.ts';
import type { ReadReport, ReportReader } from './reading.ts';
import type { ReportScope } from './scope.ts';

/** CommonJS, as eval'd code runs: the hook first, then the thread's module. */
const ENTRY = new URL('./reader-thread.ts', import.meta.url);

const IDLE_MS = 60_000;

export interface ReaderThreadsOptions {
  /** Threads at most (by default REPORTS_AT_ONCE, but one fewer than the cores). */
  threads?: number;
  /** Tests: a thread's report waits on it (reader-thread.ts, ReaderThreadData). */
  hold?: Int32Array;
  /** Told why a thread died. */
  onError?: (error: unknown) => void;
}

interface Job {
  scope: ReportScope;
  resolve: (read: ReadReport) => void;
  reject: (error: Error) => void;
}

export function readerThreads(file: string, options: ReaderThreadsOptions = {}): ReportReader {
  const size = options.threads ?? Math.max(1, Math.min(REPORTS_AT_ONCE, availableParallelism() - 1));
  const idle: Worker[] = [];
  const busy = new Map<Worker, Job>();
  const queue: Job[] = [];
  let stopTimer: NodeJS.Timeout | undefined;
  let nextId = 0;

  function spawn(): Worker {
    const workerData: ReaderThreadData = { file, ...(options.hold ? { hold: options.hold } : {}) };
    // A report in flight does not keep a stopping process alive (unref'd); the HTTP server does while it serves.
    const worker = startServerThread(ENTRY, { ...workerData });
    worker.on('message', (answer: ReaderThreadAnswer) => {
      const job = busy.get(worker);
      busy.delete(worker);
      if (job) {
        if ('error' in answer) job.reject(new Error(`the report reader failed: ${answer.error}`));
        else job.resolve({ measures: answer.measures, threadId: answer.threadId });
      }
      idle.push(worker);
      pump();
    });
    worker.on('error', (error) => options.onError?.(error));
    worker.on('exit', (code) => {
      const job = busy.get(worker);
      busy.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      if (job) {
        if (code !== 0) options.onError?.(new Error(`a report reader thread ended with code ${code}`));
        job.reject(new HttpError(503, 'report_reader_failed'));
      }
      pump();
    });
    return worker;
  }

  function pump(): void {
    while (queue.length > 0) {
      const worker = idle.pop() ?? (busy.size < size ? spawn() : undefined);
      if (!worker) return;
      const job = queue.shift() as Job;
      busy.set(worker, job);
      worker.postMessage({ id: nextId++, scope: job.scope });
    }
    if (busy.size === 0) {
      clearTimeout(stopTimer);
      stopTimer = setTimeout(stopIdle, IDLE_MS);
      stopTimer.unref();
    }
  }

  function stopIdle(): void {
    for (const worker of idle.splice(0)) void worker.terminate();
  }

  return {
    where: 'threads',
    read(scope) {
      clearTimeout(stopTimer);
      return new Promise((resolve, reject) => {
        queue.push({ scope, resolve, reject });
        pump();
      });
    },
    /** Ends every thread (a report still reading answers 503); a later report would start one again. */
    async close() {
      clearTimeout(stopTimer);
      for (const job of queue.splice(0)) job.reject(new HttpError(503, 'report_reader_failed'));
      await Promise.all([...idle.splice(0), ...busy.keys()].map((worker) => worker.terminate()));
    },
  };
}
