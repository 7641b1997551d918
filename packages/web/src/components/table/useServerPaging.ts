/**
 * A table paged, sorted and searched on the server (issue 18: the users tables past USERS_PAGED_ABOVE users).
 * The caller keeps this state, asks the server for the page it describes, and hands ConsoleTable the answer as
 * its `server` prop; the table then shows the rows it is given and reports pages, sorts and searches here.
 * The rows per page are remembered like the tables that page in the browser (useRememberedPagination).
 */
import type { MRT_SortingState, MRT_Updater } from 'material-react-table';
import { useCallback, useDeferredValue, useState } from 'react';
import { type PageSizes, type PaginationUpdater, useRememberedPagination } from './useConsoleTable.ts';

export interface ServerPaging {
  /** The search box's text. */
  query: string;
  setQuery: (query: string) => void;
  /** The text the rows are asked for: the query, deferred while typing goes on. */
  searched: string;
  pagination: { pageIndex: number; pageSize: number };
  setPagination: (updater: PaginationUpdater) => void;
  sorting: MRT_SortingState;
  setSorting: (updater: MRT_Updater<MRT_SortingState>) => void;
}

/** What ConsoleTable needs of a table paged on the server. */
export interface ServerTable extends ServerPaging {
  /** How many rows the search keeps, on every page. */
  rowCount: number;
  /** Another page or search is on its way; the rows shown are the last answer's. */
  fetching: boolean;
  /** The id of every row the search keeps: the select-all box ticks them all, not only the page's. */
  allIds: () => Promise<number[]>;
  /** The columns the server sorts by; the others cannot be sorted. */
  sortable: ReadonlySet<string>;
}

export function useServerPaging(kind: 'list' | 'selection', pageSizes: PageSizes, fallbackPageSize = 5): ServerPaging {
  const [query, setQueryText] = useState('');
  const searched = useDeferredValue(query);
  const pagination = useRememberedPagination(kind, pageSizes, fallbackPageSize);
  const [sorting, setSortingState] = useState<MRT_SortingState>([]);
  const { onChange: setPagination } = pagination;
  const firstPage = useCallback(() => setPagination((old) => ({ ...old, pageIndex: 0 })), [setPagination]);
  // A new search or sort starts from the first page.
  const setQuery = useCallback(
    (next: string) => {
      setQueryText(next);
      firstPage();
    },
    [firstPage],
  );
  const setSorting = useCallback(
    (updater: MRT_Updater<MRT_SortingState>) => {
      setSortingState(updater);
      firstPage();
    },
    [firstPage],
  );
  return { query, setQuery, searched, pagination: pagination.state, setPagination, sorting, setSorting };
}
