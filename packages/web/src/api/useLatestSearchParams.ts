/**
 * The address's query as a page keeps state in it, without losing a change. React Router's functional
 * setSearchParams starts from the query of the last render: two changes made before the page renders again
 * (a person, or a test, typing two dates in a row on a busy machine) each start from the old query, and the
 * second undoes the first. Here every change starts from the latest one written, until the address has caught
 * up with it (or another navigation, Back, replaced it); the page shows that latest query at once.
 */
import { useEffect, useRef } from 'react';
import { type NavigateOptions, useSearchParams } from 'react-router';

export function useLatestSearchParams() {
  const [committed, setCommitted] = useSearchParams();
  const now = committed.toString();
  // What this page wrote and the address has not shown yet: the latest, and every one on the way to it.
  const pending = useRef<{ latest: string; written: Set<string> } | null>(null);

  useEffect(() => {
    const waiting = pending.current;
    if (!waiting) return;
    // Caught up, or moved elsewhere than anything written here (Back, a link): the address is the truth again.
    if (now === waiting.latest || !waiting.written.has(now)) pending.current = null;
  }, [now]);

  const params = new URLSearchParams(pending.current?.latest ?? now);
  const update = (change: (current: URLSearchParams) => URLSearchParams, options?: NavigateOptions) => {
    const next = change(new URLSearchParams(pending.current?.latest ?? now)).toString();
    if (!pending.current && next === now) return; // nothing changes
    const written = pending.current?.written ?? new Set<string>();
    written.add(next);
    pending.current = { latest: next, written };
    setCommitted(new URLSearchParams(next), options);
  };
  return [params, update] as const;
}
