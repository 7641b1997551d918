/** The device status of one member (DeviceStatusButton.tsx): each line of its last report, the flags, Refresh. */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { type DeviceStatus, RequestDeviceStatus } from '@talkgroup/protocol';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/client.ts';
import { useApiMutation } from '../../../api/queries.ts';
import { formatDate } from '../../../i18n/dates.ts';
import { AmbientListeningControl } from './AmbientListeningControl.tsx';
import { deviceFlags } from './deviceFlags.ts';

export function DeviceStatusDialog({
  user,
  status,
  online,
  loading,
  onClose,
}: {
  user: { id: number; name: string };
  status: DeviceStatus | null;
  online: boolean;
  loading: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('dispatch');
  const titleId = useId();
  const refresh = useApiMutation(RequestDeviceStatus);
  const { lowBattery, appClosed } = deviceFlags(status, online);
  const yesNo = (value: boolean) => (value ? t('device.yes') : t('device.no'));
  const rows: Array<[string, string]> = status
    ? [
        [
          t('device.battery'),
          status.battery
            ? `${Math.round(status.battery.level * 100)} %${status.battery.charging ? ` · ${t('device.charging')}` : ''}`
            : t('device.unknown'),
        ],
        [
          t('device.network'),
          `${status.network.online ? t('device.online') : t('device.offline')}${
            status.network.effectiveType ? ` · ${status.network.effectiveType}` : ''
          }`,
        ],
        [t('device.app'), appClosed ? t('device.appClosed') : t('device.appOpen')],
        [t('device.visible'), yesNo(status.visible)],
        [t('device.wakeLock'), yesNo(status.wakeLock)],
        [
          t('device.position'),
          status.position
            ? t('device.positionValue', {
                accuracy: status.position.accuracy === null ? '?' : Math.round(status.position.accuracy),
                date: formatDate(status.position.at),
              })
            : t('device.noPosition'),
        ],
        [t('device.version'), status.appVersion || t('device.unknown')],
        [t('device.push'), yesNo(status.push)],
        [t('device.reportedAt'), formatDate(status.reportedAt)],
      ]
    : [];
  const refreshed = refresh.data?.res;
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t('device.title', { name: user.name })}</DialogTitle>
      <DialogContent>
        {lowBattery ? (
          <Alert severity="warning" sx={{ mb: 1 }}>
            {t('device.lowBattery')}
          </Alert>
        ) : null}
        {status && appClosed ? (
          <Alert severity="warning" sx={{ mb: 1 }}>
            {t('device.appClosed')}
          </Alert>
        ) : null}
        {refresh.error ? (
          <Alert severity="error" sx={{ mb: 1 }}>
            {errorMessage(refresh.error, t('device.refreshFailed'))}
          </Alert>
        ) : null}
        {refreshed ? (
          <Alert severity={refreshed.appOpen ? 'info' : 'warning'} role="status" sx={{ mb: 1 }}>
            {refreshed.appOpen ? t('device.asked') : t('device.notOpen')}
          </Alert>
        ) : null}
        {!loading && !status ? <Typography>{t('device.none')}</Typography> : null}
        {status ? (
          <Table size="small" aria-label={t('device.title', { name: user.name })}>
            <TableBody>
              {rows.map(([name, value]) => (
                <TableRow key={name}>
                  <TableCell component="th" scope="row" sx={{ fontWeight: 600 }}>
                    {name}
                  </TableCell>
                  <TableCell>{value}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        ) : null}
        <AmbientListeningControl user={user} />
      </DialogContent>
      <DialogActions>
        <Button onClick={() => refresh.mutate({ userId: user.id })} disabled={refresh.isPending}>
          {t('device.refresh')}
        </Button>
        <Button onClick={onClose}>{t('device.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
