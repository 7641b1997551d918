/**
 * material-react-table with the console's defaults: the reader's language, 5 rows per page (spec section 9),
 * no column menus, white background. Pass any MRT option to override a default.
 *
 * `search: { query, textOf }` is the lists' text filter (spec section 2): a substring of the whole row, case and
 * accent insensitive. Each row's text is folded once per data change; a keystroke runs one `includes` per row
 * inside TanStack's filtered row model, which reuses the row objects it already has (no new rows, no garbage),
 * and useDeferredValue keeps the input responsive while the table catches up. It replaces MRT's own global
 * filter field, which waits 250-500 ms before filtering.
 */

import { foldText } from '@talkgroup/protocol';
import {
  type MRT_FilterFn,
  type MRT_RowData,
  type MRT_TableOptions,
  useMaterialReactTable,
} from 'material-react-table';
import { MRT_Localization_DE } from 'material-react-table/locales/de';
import { MRT_Localization_EN } from 'material-react-table/locales/en';
import { MRT_Localization_FR } from 'material-react-table/locales/fr';
import { useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toLanguage } from '../../i18n/languages.ts';

const LOCALIZATIONS = { fr: MRT_Localization_FR, en: MRT_Localization_EN, de: MRT_Localization_DE };

/** Rows per page of the lists and the edit dialog (spec section 9, and 50: issue 17). */
export const PAGE_SIZES = [5, 10, 25, 50];
/** Rows per page of channel-selection tables (spec section 9, and 25 and 50: issue 17). */
export const SELECTION_PAGE_SIZES = [5, 10, 20, 25, 50];
/** The page size that stands for 'ALL'. */
export const ALL_ROWS = 1_000_000;

/** Rows-per-page choices: numbers, or labelled values (the dashboard's 'ALL'). */
export type PageSizes = number[] | Array<{ label: string; value: number }>;

export function useTableLocalization() {
  const { i18n } = useTranslation();
  return LOCALIZATIONS[toLanguage(i18n.resolvedLanguage)];
}

export interface TableSearch<Row> {
  query: string;
  textOf: (row: Row) => string;
}

export function useConsoleTable<Row extends MRT_RowData>(
  options: MRT_TableOptions<Row> & {
    pageSizes?: PageSizes;
    search?: TableSearch<Row>;
  },
) {
  const localization = useTableLocalization();
  const { pageSizes = PAGE_SIZES, initialState, search, state, ...rest } = options;

  const query = useDeferredValue(search?.query ?? '');
  const textOf = search?.textOf;
  const haystacks = useMemo(
    () => (textOf ? options.data.map((row) => foldText(textOf(row))) : []),
    [options.data, textOf],
  );
  // The filter function must stay the same object; it reads the current haystacks through a ref.
  const haystacksRef = useRef(haystacks);
  haystacksRef.current = haystacks;
  const filterFns = useMemo(() => {
    const rowText: MRT_FilterFn<Row> = (row, _columnId, needle: string) =>
      haystacksRef.current[row.index]?.includes(needle) ?? false;
    rowText.resolveFilterValue = (value) => foldText(String(value ?? '').trim());
    return { rowText };
  }, []);
  const pagination = useRememberedPageSize(options, pageSizes);
  const firstColumn = options.columns[0];
  const searchColumnId = firstColumn ? String(firstColumn.id ?? firstColumn.accessorKey ?? '') : '';

  return useMaterialReactTable<Row>({
    localization,
    enableColumnActions: false,
    enableColumnFilters: false,
    enableDensityToggle: false,
    enableFullScreenToggle: false,
    enableHiding: false,
    enableToolbarInternalActions: false,
    enableColumnResizing: false,
    enableSortingRemoval: true,
    positionActionsColumn: 'last',
    // Tables sit on white cards, not on the page's grey.
    mrtTheme: (theme) => ({ baseBackgroundColor: theme.palette.background.paper }),
    paginationDisplayMode: 'default',
    muiPaginationProps: { rowsPerPageOptions: pageSizes },
    muiTablePaperProps: { elevation: 0, variant: 'outlined', sx: { borderRadius: 3, overflow: 'hidden' } },
    // 10 px side padding (MRT's is 16): eight columns fit a 1280 px screen.
    muiTableHeadCellProps: { sx: { fontWeight: 700, color: 'text.secondary', whiteSpace: 'nowrap', px: 1.25 } },
    muiTableBodyCellProps: { sx: { px: 1.25 } },
    muiTopToolbarProps: { sx: { px: 1.5, py: 1 } },
    // The search box is the page's own (SearchField); MRT only filters, through one column so that the
    // function runs once per row.
    enableGlobalFilter: Boolean(search),
    positionGlobalFilter: 'none',
    enableGlobalFilterRankedResults: false,
    enableFilterMatchHighlighting: false,
    filterFns,
    globalFilterFn: 'rowText',
    getColumnCanGlobalFilter: (column) => column.id === searchColumnId,
    ...(pagination ? { onPaginationChange: pagination.onChange } : {}),
    ...rest,
    state: {
      ...(pagination ? { pagination: pagination.state } : {}),
      ...state,
      ...(search ? { globalFilter: query } : {}),
    },
    initialState: { pagination: { pageIndex: 0, pageSize: 5 }, density: 'comfortable', ...initialState },
  });
}

type PaginationState = { pageIndex: number; pageSize: number };
export type PaginationUpdater = PaginationState | ((old: PaginationState) => PaginationState);

/**
 * Rows per page are remembered per kind of table (the page's path, a list or a selection, its choices) in
 * localStorage (issue 17 point 9), unless the caller manages the paging itself.
 */
function useRememberedPageSize(
  options: {
    onPaginationChange?: unknown;
    state?: { pagination?: unknown };
    initialState?: { pagination?: { pageSize?: number } };
    enableRowSelection?: unknown;
  },
  pageSizes: PageSizes,
) {
  const managed = options.onPaginationChange !== undefined || options.state?.pagination !== undefined;
  const remembered = useRememberedPagination(
    options.enableRowSelection ? 'selection' : 'list',
    pageSizes,
    options.initialState?.pagination?.pageSize ?? 5,
  );
  return managed ? undefined : remembered;
}

/** A table's paging, its page size remembered for its kind of table (a table paged on the server uses it too). */
export function useRememberedPagination(kind: 'list' | 'selection', pageSizes: PageSizes, fallback: number) {
  const values = pageSizes.map((size) => (typeof size === 'number' ? size : size.value));
  const key = `talkgroup.rowsPerPage:${window.location.pathname}:${kind}:${values.join(',')}`;
  const [state, setState] = useState<PaginationState>(() => {
    const stored = Number(readStorage(key));
    return { pageIndex: 0, pageSize: values.includes(stored) ? stored : fallback };
  });
  const onChange = useCallback(
    (updater: PaginationUpdater) =>
      setState((old) => {
        const next = typeof updater === 'function' ? updater(old) : updater;
        if (next.pageSize !== old.pageSize) writeStorage(key, String(next.pageSize));
        return next;
      }),
    [key],
  );
  return { state, onChange };
}

function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStorage(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage refused (private mode, quota): the choice lasts as long as the page.
  }
}
