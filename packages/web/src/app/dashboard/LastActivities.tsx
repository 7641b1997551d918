/**
 * Last Activities (spec sections 2 and 9): a timeline of 8 per page (start 8 × (page − 1)), live; 'Voir tout'
 * goes to /activities, and a dialog pages through every activity.
 */
import OpenInFullIcon from '@mui/icons-material/OpenInFull';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Pagination from '@mui/material/Pagination';
import Skeleton from '@mui/material/Skeleton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { DASHBOARD_ACTIVITIES_PAGE_SIZE } from '@talkgroup/protocol';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ActivityTimeline, useActivityPage } from '../../features/activities/index.ts';

function PagedTimeline({ label, pagerLabel }: { label: string; pagerLabel: string }) {
  const { t } = useTranslation(['dashboard', 'common']);
  const [page, setPage] = useState(1);
  const log = useActivityPage(page, DASHBOARD_ACTIVITIES_PAGE_SIZE);
  const current = Math.min(page, log.pageCount);

  if (log.loading) return <Skeleton variant="rounded" height={320} aria-label={t('common:loading')} />;
  if (log.error && log.activities.length === 0) {
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={log.retry}>
            {t('common:actions.retry')}
          </Button>
        }
      >
        {t('dashboard:lastActivities.loadFailed')}
      </Alert>
    );
  }
  if (log.total === 0) {
    return <Typography sx={{ color: 'text.secondary', py: 2 }}>{t('dashboard:lastActivities.empty')}</Typography>;
  }
  return (
    <>
      <Box sx={{ height: 4, mb: 1 }}>
        {log.changingPage ? <LinearProgress aria-label={t('common:loading')} /> : null}
      </Box>
      <Box aria-busy={log.changingPage} sx={{ opacity: log.changingPage ? 0.6 : 1, transition: 'opacity 120ms' }}>
        <ActivityTimeline activities={log.activities} label={label} />
      </Box>
      {log.pageCount > 1 ? (
        <Pagination
          aria-label={pagerLabel}
          count={log.pageCount}
          page={current}
          onChange={(_, next) => setPage(next)}
          size="small"
          siblingCount={0}
          sx={{ mt: 2, display: 'flex', justifyContent: 'center' }}
        />
      ) : null}
    </>
  );
}

export function LastActivities() {
  const { t } = useTranslation(['dashboard', 'common']);
  const titleId = useId();
  const dialogTitleId = useId();
  const [dialogOpen, setDialogOpen] = useState(false);
  const fullScreen = useMediaQuery('(max-width:600px)');
  return (
    <Card component="section" aria-labelledby={titleId} sx={{ height: '100%' }}>
      <CardHeader
        title={t('dashboard:lastActivities.title')}
        slotProps={{ title: { id: titleId, variant: 'h3', component: 'h2' } }}
        action={
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
            <Button component={RouterLink} to="/activities" size="small">
              {t('dashboard:lastActivities.seeAll')}
            </Button>
            <Tooltip title={t('dashboard:lastActivities.openAll')}>
              <IconButton aria-label={t('dashboard:lastActivities.openAll')} onClick={() => setDialogOpen(true)}>
                <OpenInFullIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </Box>
        }
        sx={{ pb: 0, '& .MuiCardHeader-action': { alignSelf: 'center', m: 0 } }}
      />
      <CardContent>
        <PagedTimeline label={t('dashboard:lastActivities.title')} pagerLabel={t('dashboard:lastActivities.pager')} />
      </CardContent>
      <Dialog
        open={dialogOpen}
        onClose={() => setDialogOpen(false)}
        aria-labelledby={dialogTitleId}
        fullWidth
        maxWidth="sm"
        fullScreen={fullScreen}
      >
        <DialogTitle id={dialogTitleId}>{t('dashboard:lastActivities.allTitle')}</DialogTitle>
        <DialogContent dividers>
          <PagedTimeline
            label={t('dashboard:lastActivities.allTitle')}
            pagerLabel={t('dashboard:lastActivities.allPager')}
          />
        </DialogContent>
        <DialogActions>
          <Button component={RouterLink} to="/activities">
            {t('dashboard:lastActivities.seeAll')}
          </Button>
          <Button variant="contained" onClick={() => setDialogOpen(false)}>
            {t('common:actions.close')}
          </Button>
        </DialogActions>
      </Dialog>
    </Card>
  );
}
