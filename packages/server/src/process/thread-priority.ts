/**
 * Background threads yield the CPU to the real-time ones (issue 57). On Linux a nice value is a thread's own:
 * `os.setPriority(n)` from a thread lowers that thread alone. The report readers run at BACKGROUND_NICE, so that
 * on a busy machine the main thread (the floor, sockets, SIP) and the SIP relay's threads get the cores first;
 * with the cores free, a reader runs as fast as ever. Raising a priority would need CAP_SYS_NICE: only lowering is
 * done. Where the system refuses, nothing changes.
 *
 * Not the hash pool: a nice thread also yields to every other process of the machine, and an import's hashes (one
 * thread, a job that runs for minutes) were starved past its tests' bounds beside two busy loops; an import does
 * not hold the floor's thread, and a report's minutes-long reads are what competed with the relay.
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
