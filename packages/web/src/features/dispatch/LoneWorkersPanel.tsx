/**
 * "Travail isolé" / "Lone work" on the dispatch console (issue 60): who works alone in the desk's channels (all of
 * them for an administrator: getLoneWorkers), each with its state, when it is next asked and its last answer.
 * Read again when the server pushes what changes a state (a lone worker who did not answer, an SOS raised or
 * taken, Redis back) and every 20 s for the rest (a check falling due, an answer, a start or a stop are the
 * member's and pushed to nobody else).
 */
import Chip, { type ChipProps } from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { GetLoneWorkers, type LoneWorkerState } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callKey, useApiQuery } from '../../api/queries.ts';
import { useServerEvent } from '../../api/serverEvents.ts';
import { formatDate } from '../../i18n/dates.ts';

/** The fallback for what the server pushes to no console. */
const REFRESH_MS = 20_000;

const STATE_COLOR: Record<LoneWorkerState, ChipProps['color']> = {
  ok: 'success',
  due: 'warning',
  missed: 'error',
  escalated: 'error',
};

export function LoneWorkersPanel() {
  const { t, i18n } = useTranslation('dispatch');
  const client = useQueryClient();
  const workers = useApiQuery(GetLoneWorkers, {}, { refetchInterval: REFRESH_MS });
  const refresh = () => void client.invalidateQueries({ queryKey: callKey(GetLoneWorkers) });
  useServerEvent('loneWorkerAlert', refresh);
  useServerEvent('emergencyAlert', refresh);
  useServerEvent('emergencyAcknowledged', refresh);
  useServerEvent('resync', refresh);
  const list = [...(workers.data?.res ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  const time = (iso: string) => formatDate(iso, 'HH:mm', i18n.resolvedLanguage);

  return (
    <Paper
      component="section"
      aria-labelledby="lone-workers-title"
      variant="outlined"
      sx={{ p: 2, borderRadius: 3, mb: 3 }}
    >
      <Typography id="lone-workers-title" component="h2" variant="h6">
        {t('loneWorkers.title')}
      </Typography>
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
                  <Chip
                    size="small"
                    color={STATE_COLOR[worker.state]}
                    variant={worker.state === 'escalated' ? 'filled' : 'outlined'}
                    label={t(`loneWorkers.states.${worker.state}`)}
                  />
                </TableCell>
                <TableCell>{time(worker.nextCheckAt)}</TableCell>
                <TableCell>{time(worker.lastCheckIn)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Paper>
  );
}
