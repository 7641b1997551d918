/**
 * A whole list kept up to date from the change log (change-log.ts): built from scratch once, then, on each
 * call, only the entries that changed since the last look are built again (a live organisation changes
 * something every second, so "build again when anything changed" meant building nearly every time).
 *
 * - One refresh at a time: a call that comes while one runs waits for the next, which starts after it (the
 *   running one may have read the log before the caller's own write committed); callers that wait together
 *   share it.
 * - A list not asked for FOLLOW_WITHIN_MS is dropped (its memory is given back), and so is one whose refresh
 *   failed midway: the next call builds from scratch. The log keeps changes LOG_KEPT_MS, longer than that.
 */
import { type ListChangeLog, type ListChanges, LOG_KEPT_MS, type LogPosition } from './change-log.ts';
import { type ListBody, listBody, type Piece } from './pieces.ts';

export interface ListSource<State> {
  /** The list from scratch. */
  build(): Promise<State>;
  /** Builds again what these changes touched; false when it would rather be built from scratch. */
  apply(state: State, changes: ListChanges): Promise<boolean>;
  /** The answer's pieces, in order. */
  pieces(state: State): readonly Piece[];
}

/** A margin under LOG_KEPT_MS for timers of different machines. */
const FOLLOW_WITHIN_MS = LOG_KEPT_MS - 30_000;

const nothing = () => {};

export function liveList<State>(log: ListChangeLog, source: ListSource<State>) {
  let kept: { state: State; from: LogPosition; readAt: number; body: ListBody } | undefined;
  const forget = setTimeout(() => {
    kept = undefined;
  }, FOLLOW_WITHIN_MS);
  forget.unref();

  const samePieces = (a: readonly Piece[], b: readonly Piece[]) =>
    a.length === b.length && a.every((p, i) => p === b[i]);

  async function refresh(): Promise<ListBody> {
    const now = performance.now();
    forget.refresh();
    const current = kept;
    if (current && now - current.readAt < FOLLOW_WITHIN_MS) {
      const { changes, next } = await log.since(current.from);
      let followed = false;
      try {
        followed = await source.apply(current.state, changes);
      } catch (error) {
        kept = undefined;
        throw error;
      }
      if (followed) {
        current.from = next;
        current.readAt = now;
        const pieces = source.pieces(current.state);
        if (!samePieces(pieces, current.body.pieces)) current.body = listBody(pieces);
        return current.body;
      }
    }
    kept = undefined;
    // Where the log stands before the list is read: what changes meanwhile is read again next time.
    const from = await log.position();
    const state = await source.build();
    const body = listBody(source.pieces(state));
    kept = { state, from, readAt: now, body };
    return body;
  }

  let running: Promise<ListBody> | undefined;
  let waiting: Promise<ListBody> | undefined;

  /** The list with every change committed before this call. */
  function current(): Promise<ListBody> {
    if (!running) {
      running = refresh().finally(() => {
        running = undefined;
      });
      return running;
    }
    waiting ??= running.then(nothing, nothing).then(() => {
      waiting = undefined;
      return current();
    });
    return waiting;
  }

  return { current };
}

export type LiveList = ReturnType<typeof liveList>;
