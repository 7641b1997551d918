/**
 * A searchable, sortable, paged table whose rows are ticked (multi-select): the channel table of the Add User and
 * Edit User Profile dialogs, the user table of the channel dialogs. A ConsoleTable with a selection.
 *
 * Props: rows (each with a numeric id), columns (MRT column definitions), selected (ids) and onChange(ids),
 * searchText(row) (the text the search box matches), title, emptyText, pageSizes, loading, search labels, and
 * `server` when the rows are a page of the server's.
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { MRT_ColumnDef } from 'material-react-table';
import { ConsoleTable } from './ConsoleTable.tsx';
import type { PageSizes } from './useConsoleTable.ts';
import type { ServerTable } from './useServerPaging.ts';

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
  pageSizes: PageSizes;
  loading?: boolean;
  search: { label: string; placeholder: string; clearLabel: string };
  /** The rows are a page of the server's (issue 18). */
  server?: ServerTable;
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
  server,
}: SelectionTableProps<Row>) {
  return (
    <ConsoleTable<Row>
      rows={rows}
      columns={columns}
      searchText={searchText}
      texts={{ search, empty: emptyText }}
      selection={{ selected, onChange }}
      query={{ isPending: loading }}
      server={server}
      pageSizes={pageSizes}
      dense
      heading={
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
      }
    />
  );
}
