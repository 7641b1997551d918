/**
 * /activities (spec sections 2 and 9): 'Activities List', 21 entries per page in three columns (read down each
 * column), a pager with first and last buttons (the page is kept in ?page=), a loader while a page loads,
 * 'No activities to display.' when the log is empty, and the Delete menu. New activities arrive live.
 * Filters by member, channel, type and days (kept in the address too) narrow the log with the same paging, and
 * the filtered log exports as .xlsx or .csv (issue 17).
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { ACTIVITIES_PAGE_SIZE } from '@talkgroup/protocol';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMay } from '../../api/session.ts';
import { useLatestSearchParams } from '../../api/useLatestSearchParams.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { RowsExportMenu } from '../../engines/import-export/index.ts';
import { ActivityFilters } from './ActivityFilters.tsx';
import { ActivityTimeline } from './ActivityTimeline.tsx';
import { type ActivityFilterValues, callFilter, filterFromParams, isFiltering, writeFilter } from './activityFilter.ts';
import { DeleteActivitiesMenu } from './DeleteActivitiesMenu.tsx';
import { activityRows } from './exportActivities.ts';
import { useActivityPage } from './useActivityPage.ts';

const COLUMNS = 3;
const PER_COLUMN = Math.ceil(ACTIVITIES_PAGE_SIZE / COLUMNS);

function pageFrom(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

export default function ActivitiesPage() {
  // A dispatcher reads its channels' activities (the server keeps to them) and deletes none.
  const mayDelete = useMay().may('activities.delete');
  const { t, i18n } = useTranslation(['activities', 'common']);
  const { t: tActivities } = useTranslation('activities');
  const { t: tActivity } = useTranslation('activity');
  const [params, setParams] = useLatestSearchParams();
  const page = pageFrom(params);
  const filter = filterFromParams(params);
  const body = callFilter(filter);
  const log = useActivityPage(page, ACTIVITIES_PAGE_SIZE, body);
  const setFilter = (change: Partial<ActivityFilterValues>) => setParams((current) => writeFilter(current, change));
  const language = i18n.resolvedLanguage;
  const compact = useMediaQuery('(max-width:600px)');

  const goTo = (next: number) =>
    setParams(
      (current) => {
        if (next === 1) current.delete('page');
        else current.set('page', String(next));
        return current;
      },
      { replace: false },
    );

  // After a deletion (here or elsewhere) the log may end before this page: show its new last page.
  useEffect(() => {
    if (!log.loading && !log.changingPage && page > log.pageCount) goTo(log.pageCount);
  });

  const columns = Array.from({ length: COLUMNS }, (_, column) =>
    log.activities.slice(column * PER_COLUMN, (column + 1) * PER_COLUMN),
  ).filter((entries) => entries.length > 0);
  const first = (page - 1) * ACTIVITIES_PAGE_SIZE + 1;
  const showLoader = log.loading || log.changingPage;

  return (
    <>
      <PageHeader
        title={t('activities:title')}
        subtitle={
          log.total > 0
            ? t('activities:range', {
                from: first.toLocaleString(language),
                to: Math.min(first + log.activities.length - 1, log.total).toLocaleString(language),
                total: log.total.toLocaleString(language),
              })
            : undefined
        }
        actions={
          <>
            <RowsExportMenu
              label={t('activities:export.button')}
              fileName={t('activities:export.file')}
              sheetName={t('activities:export.sheet')}
              load={() => activityRows(body, tActivities, tActivity, language)}
            />
            {mayDelete ? <DeleteActivitiesMenu /> : null}
          </>
        }
      />
      <ActivityFilters value={filter} onChange={setFilter} />
      <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 }, position: 'relative', minHeight: 240 }}>
        {showLoader ? (
          <Box
            role="progressbar"
            aria-label={t('common:loading')}
            sx={{
              position: 'absolute',
              inset: 0,
              display: 'grid',
              placeItems: 'center',
              bgcolor: log.loading ? 'transparent' : 'rgba(255,255,255,0.6)',
              zIndex: 1,
              borderRadius: 'inherit',
            }}
          >
            <CircularProgress aria-hidden />
          </Box>
        ) : null}
        {log.error && log.activities.length === 0 ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={log.retry}>
                {t('common:actions.retry')}
              </Button>
            }
          >
            {t('activities:loadFailed')}
          </Alert>
        ) : !log.loading && log.total === 0 ? (
          <Typography sx={{ color: 'text.secondary', textAlign: 'center', py: 6 }}>
            {isFiltering(filter) ? t('activities:filteredEmpty') : t('activities:empty')}
          </Typography>
        ) : (
          <Box
            aria-busy={showLoader}
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' },
              columnGap: 4,
              rowGap: 2,
            }}
          >
            {columns.map((entries, column) => (
              <ActivityTimeline
                // biome-ignore lint/suspicious/noArrayIndexKey: a column is its position on the page
                key={column}
                activities={entries}
                label={t('activities:column', {
                  from: first + column * PER_COLUMN,
                  to: first + column * PER_COLUMN + entries.length - 1,
                })}
              />
            ))}
          </Box>
        )}
      </Paper>
      {log.pageCount > 1 ? (
        <Pagination
          aria-label={t('activities:pager')}
          count={log.pageCount}
          page={Math.min(page, log.pageCount)}
          onChange={(_, next) => goTo(next)}
          showFirstButton
          showLastButton
          color="primary"
          size={compact ? 'small' : 'medium'}
          siblingCount={compact ? 0 : 1}
          sx={{ mt: 3, display: 'flex', justifyContent: 'center' }}
        />
      ) : null}
    </>
  );
}
