/**
 * The gateways' media relay runs on threads of its own (issue 57): every packet of every call (its checks, its
 * voice activity, its DTMF, its G.711/Opus codec) is handled on one of them (relay-thread.ts), never on the main
 * thread, so that a year's report or 50 gateway calls never slow the floor, and the floor's work never delays a
 * packet. At most 2 threads, one fewer than the machine has cores; a new call goes to the thread with the fewest
 * calls, or to a new thread while there are fewer than that.
 *
 * A thread starts with the first call it gets and ends after a minute without any. One that dies (a crash, its
 * memory) ends its own calls only (each is told, and hangs up) and is counted as a fault; the next call starts
 * another. The threads run the server's TypeScript through the same module hook as the main thread
 * (stripped-sources.js), as the reports' reader threads do (reports/reader-threads.ts).
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startServerThread } from '../process/worker-thread.ts';
import type { CallTally, RelayEvent, RelayRequest } from './relay-thread.ts';

/** CommonJS, as eval'd code runs: the hook first, then the thread's module. */
const ENTRY = new URL('./relay-thread.ts', import.meta.url);

const IDLE_MS = 60_000;
const MAX_THREADS = 2;
/**
 * A thread's JavaScript heap at most (its calls' state is a few KB each; libopus's memory is WebAssembly's, apart):
 * a thread that would grow past it dies alone, as any thread that dies, instead of taking the process's memory.
 */
const HEAP_MB = 64;

/** What a call hears from its thread. */
export interface RelayListener {
  /** One of its events (a voice change, a key, the channel's sound, an answer to a request). */
  event(event: Exclude<RelayEvent, { type: 'tally' }>): void;
  /** Its counts and faults, each tick they changed. */
  tally(tally: CallTally): void;
  /** Its thread died: its media is gone. */
  ended(error: Error): void;
}

/** A call's way to its thread. */
export interface RelayLink {
  readonly call: number;
  readonly threadId: number;
  post(request: RelayRequest): void;
  /** The call is closed: its thread no longer tells it anything. */
  detach(): void;
}

interface Thread {
  worker: Worker;
  calls: Map<number, RelayListener>;
  error?: Error;
  idleTimer?: NodeJS.Timeout;
}

export function relayThreads(options: { threads?: number } = {}) {
  const size = options.threads ?? Math.max(1, Math.min(MAX_THREADS, availableParallelism() - 1));
  const threads: Thread[] = [];
  let nextCall = 0;
  let stopping = false;

  function spawn(): Thread {
    // Calls keep the process alive through their sockets on the main thread (SIP), not through their thread.
    const worker = startServerThread(ENTRY, {}, { resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } });
    const thread: Thread = { worker, calls: new Map() };
    worker.on('message', (event: RelayEvent) => {
      if (event.type === 'tally') for (const tally of event.calls) thread.calls.get(tally.call)?.tally(tally);
      else thread.calls.get(event.call)?.event(event);
    });
    worker.on('error', (error) => {
      thread.error = error;
    });
    worker.on('exit', (code) => {
      clearTimeout(thread.idleTimer);
      const at = threads.indexOf(thread);
      if (at >= 0) threads.splice(at, 1);
      const error = thread.error ?? new Error(`a relay thread ended with code ${code}`);
      const calls = [...thread.calls.values()];
      thread.calls.clear();
      if (!stopping) for (const call of calls) call.ended(error);
    });
    threads.push(thread);
    return thread;
  }

  /** The thread with the fewest calls, or a new one while a thread is busy and there is room for another. */
  function chosen(): Thread {
    const least = threads.reduce<Thread | undefined>(
      (best, thread) => (!best || thread.calls.size < best.calls.size ? thread : best),
      undefined,
    );
    return least && (least.calls.size === 0 || threads.length >= size) ? least : spawn();
  }

  function idleCheck(thread: Thread): void {
    clearTimeout(thread.idleTimer);
    if (thread.calls.size > 0) return;
    thread.idleTimer = setTimeout(() => void thread.worker.terminate(), IDLE_MS);
    thread.idleTimer.unref();
  }

  return {
    size,
    /** A new call, on one of the threads. */
    attach(listener: RelayListener): RelayLink {
      stopping = false;
      const thread = chosen();
      clearTimeout(thread.idleTimer);
      const call = nextCall++;
      thread.calls.set(call, listener);
      return {
        call,
        threadId: thread.worker.threadId,
        post(request) {
          // A thread that ended takes no more requests: its calls have been told already.
          if (threads.includes(thread)) thread.worker.postMessage(request);
        },
        detach() {
          if (thread.calls.delete(call)) idleCheck(thread);
        },
      };
    },
    /** The threads running now (tests, metrics). */
    threadIds: () => threads.map((thread) => thread.worker.threadId),
    /** Tests: ends a thread as a crash would (its calls are told). */
    async kill(threadId: number): Promise<void> {
      await threads.find((thread) => thread.worker.threadId === threadId)?.worker.terminate();
    },
    /** Ends every thread; their calls are not told (the server stops, and hangs them up itself). */
    async stop(): Promise<void> {
      stopping = true;
      await Promise.all(threads.map((thread) => thread.worker.terminate()));
    },
  };
}

export type RelayThreads = ReturnType<typeof relayThreads>;
