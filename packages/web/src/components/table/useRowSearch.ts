/**
 * The lists' text filter (spec section 2): a substring of the whole row, case and accent insensitive.
 * Each row's searchable text is computed once per data change; a keystroke only runs `includes` over those
 * strings, and useDeferredValue keeps the input responsive while the table re-renders.
 */
import { foldText } from '@talkgroup/protocol';
import { useDeferredValue, useMemo, useState } from 'react';

export function useRowSearch<Row>(rows: Row[], textOf: (row: Row) => string) {
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const haystacks = useMemo(() => rows.map((row) => foldText(textOf(row))), [rows, textOf]);
  const filtered = useMemo(() => {
    const needle = foldText(deferred.trim());
    if (needle === '') return rows;
    return rows.filter((_, index) => haystacks[index].includes(needle));
  }, [rows, haystacks, deferred]);
  return { query, setQuery, filtered, pending: query !== deferred };
}
