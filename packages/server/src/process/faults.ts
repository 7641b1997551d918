/**
 * Faults that stayed local (issue 57): an error in one SIP message, one call, one relay packet, one answer of
 * Janus's, one socket event, one worker thread (a report reader) or one timer ends that piece of work and nothing
 * else. Each is counted in /metrics (`talkgroup_faults_total{part}`) and logged with its cause, once a minute per
 * part and cause: a flood of the same bad packet is one line a minute, not a line a packet.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { LabelledCounter } from './metrics.ts';

export const FAULT_PARTS = [
  'sip_message',
  'sip_call',
  'rtp_relay',
  'janus',
  'socket_event',
  'worker',
  'timer',
  'unhandled',
] as const;
export type FaultPart = (typeof FAULT_PARTS)[number];

export const FAULTS_COUNTER: LabelledCounter<FaultPart> = {
  name: 'talkgroup_faults_total',
  help: 'Errors that ended one message, call, packet, answer, event or timer and nothing else, by part.',
  label: 'part',
  values: FAULT_PARTS,
};

/** Until the app attaches its log (the first moments of a start), a fault is still said, on stderr. */
const stderrLog = {
  error: (object: { err?: unknown }, line: string) => console.error(line, object.err),
} as unknown as FastifyBaseLogger;

const LOG_EVERY_MS = 60_000;
/** Causes remembered for the once-a-minute rule; past this many, the oldest are forgotten. */
const MAX_CAUSES = 1000;

export interface Faults {
  /** One fault of this part: counted, and logged unless the same cause was logged within the minute. */
  fault(part: FaultPart, error: unknown, context?: Record<string, unknown>): void;
  /** Runs `work`; an error thrown is a fault of this part, never thrown further. */
  guard<A extends unknown[]>(part: FaultPart, work: (...args: A) => void): (...args: A) => void;
  /** Where counts and lines go (the app's metrics and log, once they exist). */
  attach(count: (part: FaultPart) => void, log: FastifyBaseLogger): void;
  /** Counted so far in this process, by part (tests). */
  counts(): Record<FaultPart, number>;
}

const causeOf = (error: unknown) =>
  error instanceof Error ? `${error.name}: ${error.message.split('\n', 1)[0]}` : String(error).slice(0, 200);

export function createFaults(): Faults {
  let count: (part: FaultPart) => void = () => {};
  let log: FastifyBaseLogger = stderrLog;
  const totals = Object.fromEntries(FAULT_PARTS.map((part) => [part, 0])) as Record<FaultPart, number>;
  const loggedAt = new Map<string, number>();

  const faults: Faults = {
    fault(part, error, context) {
      totals[part]++;
      try {
        count(part);
      } catch {}
      const key = `${part} ${causeOf(error)}`;
      const now = Date.now();
      if (now - (loggedAt.get(key) ?? Number.NEGATIVE_INFINITY) < LOG_EVERY_MS) return;
      loggedAt.delete(key);
      loggedAt.set(key, now);
      if (loggedAt.size > MAX_CAUSES) loggedAt.delete(loggedAt.keys().next().value as string);
      log.error({ err: error, part, ...context }, `a fault stayed local (${part}): ${causeOf(error)}`);
    },
    guard(part, work) {
      return (...args) => {
        try {
          work(...args);
        } catch (error) {
          faults.fault(part, error);
        }
      };
    },
    attach(counter, logger) {
      count = counter;
      log = logger;
    },
    counts: () => ({ ...totals }),
  };
  return faults;
}
