/**
 * The Delete menu of the Activities page (spec sections 2, 8 and 9): Last month, Last 2 weeks, Last week;
 * 'Are you sure you want to delete all activities before {period} ?' with Cancel and Delete; then
 * 'Activities Deleted', or 'Failed to Delete Activities' when the server refuses, or 'Error' when it cannot
 * be reached.
 */
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import DeleteSweepOutlinedIcon from '@mui/icons-material/DeleteSweepOutlined';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { ACTIVITY_TIME_FRAMES, type ActivityTimeFrame } from '@talkgroup/protocol';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { useDeleteOldActivities } from './api/deleteOldActivities.ts';

/** After a deletion every page of the log reloads (useDeleteOldActivities). */
export function DeleteActivitiesMenu() {
  const { t } = useTranslation('activities');
  const notify = useNotify();
  const buttonId = useId();
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [period, setPeriod] = useState<ActivityTimeFrame | null>(null);
  const deleteOld = useDeleteOldActivities();

  const remove = async (timeFrame: ActivityTimeFrame) => {
    try {
      await deleteOld.mutateAsync(timeFrame);
      notify({ severity: 'success', title: t('delete.done.title'), message: t('delete.done.message') });
    } catch (error) {
      // The server answered with a refusal, or the request never got an answer.
      const failed = error instanceof ApiError && error.status !== 0;
      notify({
        severity: 'error',
        title: t(failed ? 'delete.failed.title' : 'delete.error.title'),
        message: t(failed ? 'delete.failed.message' : 'delete.error.message'),
      });
    } finally {
      setPeriod(null);
    }
  };

  return (
    <>
      <Button
        id={buttonId}
        variant="outlined"
        color="error"
        startIcon={<DeleteSweepOutlinedIcon />}
        endIcon={<ArrowDropDownIcon />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? true : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {t('delete.button')}
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-labelledby': buttonId } }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {ACTIVITY_TIME_FRAMES.map((timeFrame) => (
          <MenuItem
            key={timeFrame}
            onClick={() => {
              setAnchor(null);
              setPeriod(timeFrame);
            }}
          >
            {t(`delete.periods.${timeFrame}`)}
          </MenuItem>
        ))}
      </Menu>
      <ConfirmDialog
        open={period !== null}
        title={t('delete.confirmTitle')}
        message={period ? t('delete.confirm', { period: t(`delete.before.${period}`) }) : undefined}
        cancelLabel={t('delete.cancel')}
        confirmLabel={t('delete.confirmButton')}
        destructive
        onCancel={() => setPeriod(null)}
        onConfirm={() => (period ? remove(period) : undefined)}
      />
    </>
  );
}
