/**
 * Background threads yield the CPU to the real-time ones (issue 57). On Linux a nice value is a thread's own:
 * `os.setPriority(n)` from a thread lowers that thread alone. The report readers and the hash pool run at
 * BACKGROUND_NICE, so that on a busy machine the main thread (the floor, sockets, SIP) and the SIP relay's
 * threads get the cores first; with the cores free, a background thread runs as fast as ever. Raising a
 * priority would need CAP_SYS_NICE: only lowering is done. Where the system refuses, nothing changes.
 */
import { setPriority } from 'node:os';

export const BACKGROUND_NICE = 10;

/** Lowers the calling thread's priority (call it first thing in a background worker thread). */
export function backgroundThread(): void {
  try {
    setPriority(BACKGROUND_NICE);
  } catch {
    // Not allowed here: the thread keeps the priority it has.
  }
}

/** The same, as a line of a worker's eval'd CommonJS source. */
export const BACKGROUND_THREAD_SOURCE = `try { require('node:os').setPriority(${BACKGROUND_NICE}); } catch {}`;
