/**
 * A control that saves to the server shows the person's choice at once (issue 36): the value chosen is shown
 * until the save settles; once saved, the server's own value (read again by `save`) takes over; refused, the
 * control goes back to it and the caller says why.
 */
import { useCallback, useState } from 'react';

export function useChosen<K, V>() {
  const [chosen, setChosen] = useState(() => new Map<K, V>());
  const forget = useCallback(
    (key: K) =>
      setChosen((previous) => {
        const next = new Map(previous);
        next.delete(key);
        return next;
      }),
    [],
  );
  /** Shows `value` for `key` now, runs `save` (which should also read the value again), then shows the server's. */
  const choose = useCallback(
    async (key: K, value: V, save: () => Promise<unknown>) => {
      setChosen((previous) => new Map(previous).set(key, value));
      try {
        await save();
      } finally {
        forget(key);
      }
    },
    [forget],
  );
  const shown = useCallback(
    (key: K, fromServer: V): V => (chosen.has(key) ? (chosen.get(key) as V) : fromServer),
    [chosen],
  );
  return { choose, shown };
}
