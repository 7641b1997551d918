/**
 * "Travail isolé" / "Lone work" on the dispatch console (issue 60): who works alone in the desk's channels (all of
 * them for an administrator: getLoneWorkers), each with its state, when it is next asked and its last answer.
 * Issue 70: live from the server's pushes (useLoneWorkers), and one click away whatever the page's scroll: the
 * toolbar's "Travail isolé" button, which counts who needs a look, opens the list in a side panel.
 */
import CloseIcon from '@mui/icons-material/Close';
import PersonPinCircleIcon from '@mui/icons-material/PersonPinCircleOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { LoneWorker, LoneWorkerState } from '@talkgroup/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../i18n/dates.ts';
import { useLoneWorkers } from './useLoneWorkers.ts';

export const STATE_COLOR: Record<LoneWorkerState, ChipProps['color']> = {
  ok: 'success',
  due: 'warning',
  missed: 'error',
  escalated: 'error',
};

/** The member's lone-work state as a small chip (its row in a tile, the list). */
export function LoneWorkChip({ worker, withTitle = false }: { worker: LoneWorker; withTitle?: boolean }) {
  const { t } = useTranslation('dispatch');
  const state = t(`loneWorkers.states.${worker.state}`);
  return (
    <Chip
      size="small"
      color={STATE_COLOR[worker.state]}
      variant={worker.state === 'escalated' ? 'filled' : 'outlined'}
      label={withTitle ? t('loneWorkers.chip', { state }) : state}
      data-testid="lone-work-state"
    />
  );
}

/** The toolbar's button: "Travail isolé", with how many work alone and how many need a look. */
export function LoneWorkersButton() {
  const { t } = useTranslation('dispatch');
  const { enabled, workers } = useLoneWorkers();
  const [open, setOpen] = useState(false);
  if (!enabled) return null;
  const list = workers.data?.res ?? [];
  const attention = list.filter((worker) => worker.state !== 'ok').length;
  return (
    <>
      <Button
        variant="outlined"
        color={attention > 0 ? 'error' : 'primary'}
        startIcon={<PersonPinCircleIcon />}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {attention > 0
          ? t('loneWorkers.buttonAttention', { count: list.length, attention })
          : t('loneWorkers.button', { count: list.length })}
      </Button>
      <Drawer
        anchor="right"
        open={open}
        onClose={() => setOpen(false)}
        slotProps={{ paper: { sx: { width: 520, maxWidth: '100vw' } } }}
      >
        <LoneWorkersPanel onClose={() => setOpen(false)} />
      </Drawer>
    </>
  );
}

export function LoneWorkersPanel({ onClose }: { onClose?: () => void }) {
  const { t, i18n } = useTranslation('dispatch');
  const { workers } = useLoneWorkers();
  const list = [...(workers.data?.res ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  const time = (iso: string) => formatDate(iso, 'HH:mm', i18n.resolvedLanguage);

  return (
    <Box component="section" aria-labelledby="lone-workers-title" sx={{ p: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <Typography id="lone-workers-title" component="h2" variant="h6" sx={{ flex: 1 }}>
          {t('loneWorkers.title')}
        </Typography>
        {onClose ? (
          <IconButton aria-label={t('loneWorkers.close')} onClick={onClose}>
            <CloseIcon />
          </IconButton>
        ) : null}
      </Box>
      {workers.isError ? (
        <Typography sx={{ color: 'warning.main', mt: 1 }}>{t('loneWorkers.failed')}</Typography>
      ) : list.length === 0 ? (
        <Typography sx={{ color: 'text.secondary', mt: 1 }}>{t('loneWorkers.empty')}</Typography>
      ) : (
        <Table size="small" aria-labelledby="lone-workers-title" sx={{ mt: 1 }}>
          <TableHead>
            <TableRow>
              <TableCell>{t('loneWorkers.name')}</TableCell>
              <TableCell>{t('loneWorkers.state')}</TableCell>
              <TableCell>{t('loneWorkers.nextCheck')}</TableCell>
              <TableCell>{t('loneWorkers.lastCheckIn')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {list.map((worker) => (
              <TableRow key={worker.userId}>
                <TableCell component="th" scope="row">
                  {worker.name}
                </TableCell>
                <TableCell>
                  <LoneWorkChip worker={worker} />
                </TableCell>
                <TableCell>{time(worker.nextCheckAt)}</TableCell>
                <TableCell>{time(worker.lastCheckIn)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
