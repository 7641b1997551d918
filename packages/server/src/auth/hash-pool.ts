/**
 * Hashing many passwords at once (a user import) on worker threads of its own, at most one fewer than the
 * machine has cores: an import of hundreds of users (an scrypt hash each, about 150 ms of one core) must not
 * take libuv's shared pool of four threads, where sign-ins and file reads wait, nor every core of a small
 * machine. Sign-ins keep hashing on the libuv pool (passwords.ts) and stay fast while an import runs.
 *
 * The workers run plain JavaScript (no TypeScript to strip), start on first use and stop after a minute idle.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { formatHash, type ScryptFigures, scryptOptions } from './passwords.ts';

const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
parentPort.on('message', ({ id, password, salt, options }) => {
  try {
    const key = scryptSync(password.normalize('NFKC'), Buffer.from(salt), options.keyLength, options);
    parentPort.postMessage({ id, key });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) });
  }
});`;

const IDLE_MS = 60_000;

interface Job {
  password: string;
  resolve: (hash: string) => void;
  reject: (error: Error) => void;
}

export function hashPool(size = Math.max(1, availableParallelism() - 1)) {
  const idle: Worker[] = [];
  const busy = new Map<Worker, { job: Job; salt: Buffer; figures: ScryptFigures }>();
  const queue: Job[] = [];
  let stopTimer: NodeJS.Timeout | undefined;
  let nextId = 0;

  function spawn(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    worker.on('message', (message: { key?: Uint8Array; error?: string }) => {
      const running = busy.get(worker);
      busy.delete(worker);
      if (running) {
        if (message.key) running.job.resolve(formatHash(running.salt, Buffer.from(message.key), running.figures));
        else running.job.reject(new Error(message.error ?? 'password hashing failed'));
      }
      idle.push(worker);
      pump();
    });
    worker.on('error', (error) => {
      const running = busy.get(worker);
      busy.delete(worker);
      running?.job.reject(error);
      pump();
    });
    return worker;
  }

  function pump(): void {
    while (queue.length > 0) {
      const worker = idle.pop() ?? (busy.size < size ? spawn() : undefined);
      if (!worker) return;
      const job = queue.shift() as Job;
      const salt = randomBytes(16);
      const options = scryptOptions();
      busy.set(worker, { job, salt, figures: options });
      worker.postMessage({ id: nextId++, password: job.password, salt, options });
    }
    if (busy.size === 0) {
      clearTimeout(stopTimer);
      stopTimer = setTimeout(stop, IDLE_MS);
      stopTimer.unref();
    }
  }

  function stop(): void {
    for (const worker of idle.splice(0)) void worker.terminate();
  }

  return {
    /**
     * The stored form of a password (`scrypt$...`), hashed on the pool. A `signal` that aborts while the hash
     * still waits for a worker takes it out of the queue (an import job stopped by a shutdown leaves no work).
     */
    hash(password: string, signal?: AbortSignal): Promise<string> {
      clearTimeout(stopTimer);
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(new Error('password hashing aborted'));
        const job: Job = { password, resolve, reject };
        queue.push(job);
        signal?.addEventListener(
          'abort',
          () => {
            const at = queue.indexOf(job);
            if (at >= 0) {
              queue.splice(at, 1);
              reject(new Error('password hashing aborted'));
            }
          },
          { once: true },
        );
        pump();
      });
    },
    /** Hashes waiting for a worker. */
    get waiting() {
      return queue.length;
    },
    /** Workers that may run at once. */
    size,
    stop,
  };
}

export type HashPool = ReturnType<typeof hashPool>;
