/**
 * A table paged, sorted and searched on the server (issue 18: the users tables past USERS_PAGED_ABOVE users).
 * The caller keeps this state, asks the server for the page it describes, and hands ConsoleTable the answer as
 * its `server` prop; the table then shows the rows it is given and reports pages, sorts and searches here.
 *
 * A change (a keystroke in the search box, another page, another sort) is first handed to `prepare`, which
 * fetches the page it needs, and is applied once that page is there: the table is drawn once per change, with
 * its new rows, instead of once at the keystroke and again when the answer comes. Of changes made in a row,
 * only the last one is applied. The rows per page are remembered like those of tables paged in the browser.
 */
import type { MRT_SortingState, MRT_Updater } from 'material-react-table';
import { useCallback, useRef, useState } from 'react';
import { type PageSizes, type PaginationUpdater, useRememberedPagination } from './useConsoleTable.ts';

export interface ServerPagingState {
  /** The text searched for. */
  query: string;
  pagination: { pageIndex: number; pageSize: number };
  sorting: MRT_SortingState;
}

export interface ServerPaging extends ServerPagingState {
  setQuery: (query: string) => void;
  setPagination: (updater: PaginationUpdater) => void;
  setSorting: (updater: MRT_Updater<MRT_SortingState>) => void;
}

/** What ConsoleTable needs of a table paged on the server. */
export interface ServerTable extends ServerPaging {
  /** How many rows the search keeps, on every page. */
  rowCount: number;
  /** The id of every row the search keeps: the select-all box ticks them all, not only the page's. */
  allIds: () => Promise<number[]>;
  /** The columns the server sorts by; the others cannot be sorted. */
  sortable: ReadonlySet<string>;
}

const apply = <T>(updater: MRT_Updater<T>, old: T): T =>
  typeof updater === 'function' ? (updater as (old: T) => T)(old) : updater;

export function useServerPaging(
  kind: 'list' | 'selection',
  pageSizes: PageSizes,
  prepare: (next: ServerPagingState) => Promise<unknown>,
  fallbackPageSize = 5,
): ServerPaging {
  const remembered = useRememberedPagination(kind, pageSizes, fallbackPageSize);
  const [query, setQueryNow] = useState('');
  const [sorting, setSortingNow] = useState<MRT_SortingState>([]);
  const current = useRef<ServerPagingState>({ query, pagination: remembered.state, sorting });
  current.current = { query, pagination: remembered.state, sorting };
  const latest = useRef(0);
  const prepareRef = useRef(prepare);
  prepareRef.current = prepare;
  const setPaginationNow = remembered.onChange;

  /** Fetches what `next` shows, then applies it, unless a later change came meanwhile. */
  const change = useCallback(
    (makeNext: (old: ServerPagingState) => ServerPagingState) => {
      const next = makeNext(current.current);
      const id = ++latest.current;
      const applyNext = () => {
        if (id !== latest.current) return;
        setQueryNow(next.query);
        setSortingNow(next.sorting);
        setPaginationNow(next.pagination);
      };
      // Shown even when the page could not be fetched: the table then says so (its query fails again).
      prepareRef.current(next).then(applyNext, applyNext);
    },
    [setPaginationNow],
  );
  // A new search or sort starts from the first page.
  const setQuery = useCallback(
    (text: string) => change((old) => ({ ...old, query: text, pagination: { ...old.pagination, pageIndex: 0 } })),
    [change],
  );
  const setSorting = useCallback(
    (updater: MRT_Updater<MRT_SortingState>) =>
      change((old) => ({
        ...old,
        sorting: apply(updater, old.sorting),
        pagination: { ...old.pagination, pageIndex: 0 },
      })),
    [change],
  );
  const setPagination = useCallback(
    (updater: PaginationUpdater) => change((old) => ({ ...old, pagination: apply(updater, old.pagination) })),
    [change],
  );
  return { query, pagination: remembered.state, sorting, setQuery, setPagination, setSorting };
}
