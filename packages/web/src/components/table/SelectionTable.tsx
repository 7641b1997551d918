/**
 * A searchable, sortable, paged table whose rows are ticked (multi-select): the channel table of the Add User and
 * Edit User Profile dialogs, the user table of the channel dialogs.
 *
 * Props: rows (each with a numeric id), columns (MRT column definitions), selected (ids) and onChange(ids),
 * searchText(row) (the text the search box matches), title, emptyText, pageSizes, loading, search labels.
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { MaterialReactTable, type MRT_ColumnDef, type MRT_RowSelectionState } from 'material-react-table';
import { useMemo, useState } from 'react';
import { SearchField } from './SearchField.tsx';
import { useConsoleTable } from './useConsoleTable.ts';

export interface SelectionTableProps<Row extends { id: number }> {
  rows: Row[];
  columns: MRT_ColumnDef<Row>[];
  selected: number[];
  onChange: (ids: number[]) => void;
  searchText: (row: Row) => string;
  title: string;
  /** Shown under the title, e.g. '2 channels selected'. */
  summary?: string;
  emptyText: string;
  pageSizes: number[] | Array<{ label: string; value: number }>;
  loading?: boolean;
  search: { label: string; placeholder: string; clearLabel: string };
}

export function SelectionTable<Row extends { id: number }>({
  rows,
  columns,
  selected,
  onChange,
  searchText,
  title,
  summary,
  emptyText,
  pageSizes,
  loading = false,
  search,
}: SelectionTableProps<Row>) {
  const [query, setQuery] = useState('');
  const rowSelection = useMemo<MRT_RowSelectionState>(
    () => Object.fromEntries(selected.map((id) => [String(id), true])),
    [selected],
  );
  const table = useConsoleTable<Row>({
    columns,
    data: rows,
    search: { query, textOf: searchText },
    getRowId: (row) => String(row.id),
    enableRowSelection: true,
    enableMultiRowSelection: true,
    enableSelectAll: true,
    selectAllMode: 'page',
    positionToolbarAlertBanner: 'none',
    pageSizes,
    state: { rowSelection, isLoading: loading },
    onRowSelectionChange: (updater) => {
      const next = typeof updater === 'function' ? updater(rowSelection) : updater;
      onChange(
        Object.entries(next)
          .filter(([, ticked]) => ticked)
          .map(([id]) => Number(id)),
      );
    },
    muiTableBodyRowProps: ({ row }) => ({
      onClick: () => row.toggleSelected(),
      sx: { cursor: 'pointer' },
    }),
    muiTablePaperProps: { elevation: 0, variant: 'outlined', sx: { borderRadius: 2, overflow: 'hidden' } },
    initialState: { density: 'compact' },
    renderTopToolbarCustomActions: () => (
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, width: '100%' }}>
        <Box sx={{ flex: 1, minWidth: 140 }}>
          <Typography variant="subtitle2" component="h3">
            {title}
          </Typography>
          {summary ? (
            <Typography variant="caption" sx={{ color: 'text.secondary' }}>
              {summary}
            </Typography>
          ) : null}
        </Box>
        <SearchField value={query} onChange={setQuery} {...search} />
      </Box>
    ),
    renderEmptyRowsFallback: () => (
      <Typography sx={{ p: 3, textAlign: 'center', color: 'text.secondary' }}>{emptyText}</Typography>
    ),
  });
  return <MaterialReactTable table={table} />;
}
