/**
 * material-react-table with the console's defaults: the reader's language, 5 rows per page (spec section 9),
 * no column menus, and no built-in global filter (tables filter with useRowSearch, a substring over the whole row,
 * without MRT's 250-500 ms debounce). Pass any MRT option to override a default.
 */

import { type MRT_RowData, type MRT_TableOptions, useMaterialReactTable } from 'material-react-table';
import { MRT_Localization_DE } from 'material-react-table/locales/de';
import { MRT_Localization_EN } from 'material-react-table/locales/en';
import { MRT_Localization_FR } from 'material-react-table/locales/fr';
import { useTranslation } from 'react-i18next';
import { toLanguage } from '../../i18n/languages.ts';

const LOCALIZATIONS = { fr: MRT_Localization_FR, en: MRT_Localization_EN, de: MRT_Localization_DE };

/** Rows per page of the lists and the edit dialog (spec section 9). */
export const PAGE_SIZES = [5, 10, 25];
/** Rows per page of channel-selection tables (spec section 9). */
export const SELECTION_PAGE_SIZES = [5, 10, 20];
/** The page size that stands for 'ALL'. */
export const ALL_ROWS = 1_000_000;

export function useTableLocalization() {
  const { i18n } = useTranslation();
  return LOCALIZATIONS[toLanguage(i18n.resolvedLanguage)];
}

export function useConsoleTable<Row extends MRT_RowData>(
  options: MRT_TableOptions<Row> & { pageSizes?: number[] | Array<{ label: string; value: number }> },
) {
  const localization = useTableLocalization();
  const { pageSizes = PAGE_SIZES, initialState, ...rest } = options;
  return useMaterialReactTable<Row>({
    localization,
    enableColumnActions: false,
    enableColumnFilters: false,
    enableGlobalFilter: false,
    enableDensityToggle: false,
    enableFullScreenToggle: false,
    enableHiding: false,
    enableToolbarInternalActions: false,
    enableColumnResizing: false,
    enableSortingRemoval: true,
    positionActionsColumn: 'last',
    paginationDisplayMode: 'default',
    muiPaginationProps: { rowsPerPageOptions: pageSizes },
    muiTablePaperProps: { elevation: 0, variant: 'outlined', sx: { borderRadius: 3, overflow: 'hidden' } },
    muiTableHeadCellProps: { sx: { fontWeight: 700, color: 'text.secondary', whiteSpace: 'nowrap' } },
    muiTopToolbarProps: { sx: { px: 1.5, py: 1 } },
    ...rest,
    initialState: { pagination: { pageIndex: 0, pageSize: 5 }, density: 'comfortable', ...initialState },
  });
}
