/**
 * The console's table: material-react-table with the console's defaults (useConsoleTable), a toolbar (heading,
 * add button, search box, tools at the right), the text search, paging, an optional row selection, row actions,
 * the empty and no-match texts, and a load error with Retry. The users and channels lists and the selection
 * tables of the dialogs are all one of these.
 *
 *   rows, columns, searchText(row)   the data, its columns and the text the search box matches (spec section 2)
 *   texts                            search labels, empty text, noMatch(query), and the load error's text
 *   title | heading                  shown first in the toolbar: a list's h2 title, or any element
 *   add                              { label, icon, onClick }: the toolbar's contained add button
 *   tools                            buttons at the right of the toolbar (Import, Export, ...)
 *   selection                        { selected ids, onChange(ids), nameOf? }: checkboxes named after their row
 *                                    ('Select Mia Martin'); a row click toggles its row; the header box selects
 *                                    every row the search keeps, on every page
 *   rowActions                       { header, size, render(row) }: the actions column
 *   editDelete                       { size, nameOf, onEdit, onDelete }: an actions column of Edit and Delete
 *   query                            { isPending, isError?, refetch? }: the query behind the rows
 *   server                           the rows are one page of the server's (useServerPaging, issue 18): the
 *                                    search, paging and sorting are the server's, the select-all box asks it
 *                                    for every id the search keeps
 *   pageSizes, dense, options        rows per page, compact look, any other MRT option
 */
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  MaterialReactTable,
  type MRT_ColumnDef,
  type MRT_RowSelectionState,
  type MRT_TableOptions,
} from 'material-react-table';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Namespace } from '../../i18n/languages.ts';
import { useNotify } from '../Notifier.tsx';
import { SearchField } from './SearchField.tsx';
import { type PageSizes, useConsoleTable } from './useConsoleTable.ts';
import type { ServerTable } from './useServerPaging.ts';

export interface ConsoleTableTexts {
  search: { label: string; placeholder: string; clearLabel: string };
  empty: string;
  /** When the search hides every row; defaults to `empty`. */
  noMatch?: (query: string) => string;
  loadError?: string;
  /** The Edit and Delete buttons' names and their column's header (editDelete). */
  rowActions?: { header: string; edit: (name: string) => string; delete: (name: string) => string };
}

export interface ConsoleTableProps<Row extends { id: number }> {
  rows: Row[];
  columns: MRT_ColumnDef<Row>[];
  searchText: (row: Row) => string;
  texts: ConsoleTableTexts;
  title?: ReactNode;
  heading?: ReactNode;
  add?: { label: string; icon: ReactNode; onClick: () => void };
  tools?: ReactNode;
  selection?: { selected: number[]; onChange: (ids: number[]) => void; nameOf?: (row: Row) => string };
  rowActions?: { header: string; size: number; render: (row: Row) => ReactNode };
  /** Edit and Delete buttons as the actions column (texts.rowActions names them). */
  editDelete?: { size: number; nameOf: (row: Row) => string; onEdit: (row: Row) => void; onDelete: (row: Row) => void };
  query?: { isPending: boolean; isError?: boolean; refetch?: () => unknown };
  /** The rows are a page of the server's: it searches, sorts and pages (issue 18). */
  server?: ServerTable;
  pageSizes?: PageSizes;
  /** Compact rows and a lighter frame, for tables inside a dialog. */
  dense?: boolean;
  options?: Partial<MRT_TableOptions<Row>>;
}

export function ConsoleTable<Row extends { id: number }>({
  rows,
  columns,
  searchText,
  texts,
  title,
  heading: headingElement,
  add,
  tools,
  selection,
  rowActions: actions,
  editDelete,
  query: rowsQuery,
  server,
  pageSizes,
  dense = false,
  options,
}: ConsoleTableProps<Row>) {
  const { t } = useTranslation('common');
  const notify = useNotify();
  const [localQuery, setLocalQuery] = useState('');
  const query = server ? server.query : localQuery;
  const setQuery = server ? server.setQuery : setLocalQuery;
  const selected = selection?.selected;
  const rowName = (row: Row) => selection?.nameOf?.(row) ?? searchText(row).trim().slice(0, 80);
  const rowSelection = useMemo<MRT_RowSelectionState>(
    () => Object.fromEntries((selected ?? []).map((id) => [String(id), true])),
    [selected],
  );

  const selectionOptions: Partial<MRT_TableOptions<Row>> = selection
    ? {
        enableRowSelection: true,
        enableMultiRowSelection: true,
        enableSelectAll: true,
        // Issue 17: the header box selects every row the search keeps, not only the page's.
        selectAllMode: 'all',
        // Named on the input itself (MRT names the box around it, which axe refuses).
        muiSelectCheckboxProps: ({ row }) => checkboxName(t('table.selectRow', { name: rowName(row.original) })),
        muiSelectAllCheckboxProps: ({ table }) => ({
          ...checkboxName(t('table.selectAll')),
          ...(server
            ? serverSelectAll(server, table.getRowModel().rows, selection.selected, selection.onChange, () =>
                notify({ severity: 'error', message: t('errors.tryAgain') }),
              )
            : {}),
        }),
        positionToolbarAlertBanner: 'none',
        onRowSelectionChange: (updater) => {
          const next = typeof updater === 'function' ? updater(rowSelection) : updater;
          selection.onChange(
            Object.entries(next)
              .filter(([, ticked]) => ticked)
              .map(([id]) => Number(id)),
          );
        },
        muiTableBodyRowProps: ({ row }) => ({ onClick: () => row.toggleSelected(), sx: { cursor: 'pointer' } }),
      }
    : {};
  const rowActions =
    actions ??
    (editDelete && texts.rowActions
      ? {
          header: texts.rowActions.header,
          size: editDelete.size,
          render: (row: Row) => (
            <EditDeleteActions
              editLabel={texts.rowActions?.edit(editDelete.nameOf(row)) ?? ''}
              deleteLabel={texts.rowActions?.delete(editDelete.nameOf(row)) ?? ''}
              onEdit={() => editDelete.onEdit(row)}
              onDelete={() => editDelete.onDelete(row)}
            />
          ),
        }
      : undefined);
  const actionOptions: Partial<MRT_TableOptions<Row>> = rowActions
    ? {
        enableRowActions: true,
        displayColumnDefOptions: { 'mrt-row-actions': { header: rowActions.header, size: rowActions.size } },
        renderRowActions: ({ row }) => rowActions.render(row.original),
      }
    : {};
  const denseOptions: Partial<MRT_TableOptions<Row>> = dense
    ? {
        muiTablePaperProps: { elevation: 0, variant: 'outlined', sx: { borderRadius: 2, overflow: 'hidden' } },
        initialState: { density: 'compact' },
      }
    : {};

  // The same element while the toolbar's parts stay the same: a keystroke re-renders the rows, not the toolbar.
  const searchTexts = texts.search;
  const toolbar = useMemo(
    () => (
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: dense ? 1.5 : 1, width: '100%' }}>
        {headingElement ?? (title ? <TableTitle>{title}</TableTitle> : null)}
        {add ? (
          <Button variant="contained" startIcon={add.icon} onClick={add.onClick}>
            {add.label}
          </Button>
        ) : null}
        {headingElement || title || add ? null : <Box sx={{ flex: 1 }} />}
        <SearchField initialValue="" onChange={setQuery} {...searchTexts} />
        {tools ? <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, ml: { md: 'auto' } }}>{tools}</Box> : null}
      </Box>
    ),
    [headingElement, title, add, tools, dense, setQuery, searchTexts],
  );

  // Paged on the server: its page as it is, and only the columns it sorts by can be sorted.
  const serverOptions: Partial<MRT_TableOptions<Row>> = server
    ? {
        manualPagination: true,
        manualSorting: true,
        manualFiltering: true,
        rowCount: server.rowCount,
        onPaginationChange: server.setPagination,
        onSortingChange: server.setSorting,
      }
    : {};
  const sortable = server?.sortable;
  const tableColumns = useMemo(
    () =>
      sortable
        ? columns.map((column) =>
            sortable.has(String(column.id ?? column.accessorKey)) ? column : { ...column, enableSorting: false },
          )
        : columns,
    [columns, sortable],
  );

  const table = useConsoleTable<Row>({
    columns: tableColumns,
    data: rows,
    search: server ? undefined : { query, textOf: searchText },
    getRowId: (row) => String(row.id),
    pageSizes,
    ...selectionOptions,
    ...actionOptions,
    ...denseOptions,
    ...serverOptions,
    // While the rows load, material-react-table leaves its sort buttons without a name: none are shown then.
    ...(rowsQuery?.isPending ? { enableSorting: false } : {}),
    ...options,
    state: {
      ...(selection ? { rowSelection } : {}),
      ...(server ? { pagination: server.pagination, sorting: server.sorting } : {}),
      isLoading: rowsQuery?.isPending ?? false,
      ...options?.state,
    },
    renderTopToolbarCustomActions: () => toolbar,
    renderEmptyRowsFallback: () => (
      <Typography sx={{ p: dense ? 3 : 4, textAlign: 'center', color: 'text.secondary' }}>
        {query.trim() && (server || rows.length > 0) && texts.noMatch ? texts.noMatch(query.trim()) : texts.empty}
      </Typography>
    ),
  });

  return (
    <>
      {rowsQuery?.isError ? (
        <Alert
          severity="error"
          sx={{ mb: 2 }}
          action={
            rowsQuery.refetch ? (
              <Button color="inherit" size="small" onClick={() => void rowsQuery.refetch?.()}>
                {t('actions.retry')}
              </Button>
            ) : undefined
          }
        >
          {texts.loadError}
        </Alert>
      ) : null}
      <MaterialReactTable table={table} />
    </>
  );
}

/**
 * The select-all box of a table paged on the server: ticked when every row the search keeps is selected (as far
 * as the page and the count tell), and a click selects or unselects all of them, asked from the server.
 */
function serverSelectAll(
  server: ServerTable,
  pageRows: Array<{ id: string }>,
  selected: number[],
  onChange: (ids: number[]) => void,
  failed: () => void,
) {
  const chosen = new Set(selected);
  const all =
    server.rowCount > 0 && selected.length >= server.rowCount && pageRows.every((row) => chosen.has(Number(row.id)));
  return {
    checked: all,
    indeterminate: !all && selected.length > 0,
    onChange: () => {
      server.allIds().then((ids) => {
        if (all) {
          const dropped = new Set(ids);
          onChange(selected.filter((id) => !dropped.has(id)));
        } else {
          onChange([...new Set([...selected, ...ids])]);
        }
      }, failed);
    },
  };
}

/** A checkbox named on its input, with no name on the box around it. */
function checkboxName(name: string) {
  return { 'aria-label': undefined, inputProps: { 'aria-label': name }, slotProps: { input: { 'aria-label': name } } };
}

/**
 * The texts of a console list whose namespace has the lists' keys: toolbar.searchLabel, toolbar.search,
 * toolbar.clearSearch, empty, noMatch ({{query}}), loadError, columns.actions, row.edit and row.delete ({{name}}).
 */
export function useListTexts(namespace: Namespace): ConsoleTableTexts {
  const { t } = useTranslation(namespace) as unknown as { t: (key: string, options?: object) => string };
  return useMemo(
    () => ({
      search: {
        label: t('toolbar.searchLabel'),
        placeholder: t('toolbar.search'),
        clearLabel: t('toolbar.clearSearch'),
      },
      empty: t('empty'),
      noMatch: (query: string) => t('noMatch', { query }),
      loadError: t('loadError'),
      rowActions: {
        header: t('columns.actions'),
        edit: (name: string) => t('row.edit', { name }),
        delete: (name: string) => t('row.delete', { name }),
      },
    }),
    [t],
  );
}

/** A list's title at the left of the toolbar (the page's h1 is the PageHeader). */
export function TableTitle({ children }: { children: ReactNode }) {
  return (
    <Typography variant="h6" component="h2" sx={{ mr: 'auto' }}>
      {children}
    </Typography>
  );
}

/** The Edit and Delete icon buttons of a list's row; a click does not reach the row (rows may open a page). */
export function EditDeleteActions({
  editLabel,
  deleteLabel,
  onEdit,
  onDelete,
}: {
  editLabel: string;
  deleteLabel: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <Box sx={{ display: 'flex', gap: 0.5 }} onClick={(event) => event.stopPropagation()}>
      <Tooltip title={editLabel}>
        <IconButton size="small" aria-label={editLabel} onClick={onEdit}>
          <EditIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Tooltip title={deleteLabel}>
        <IconButton size="small" color="error" aria-label={deleteLabel} onClick={onDelete}>
          <DeleteIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}
