/**
 * SOS alerts of the monitored channels, on the console itself: each open one with its sender and channel,
 * newest first, "Take the alert" and "Close the alert" (with its outcome, issue 50). The page also selects the
 * alert's tile and plays it at full level.
 */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { EmergencyAlert } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import {
  AlertReason,
  CloseAlertButton,
  LoneWorkerAlertList,
  useLoneWorkerAlerts,
} from '../../engines/emergency/index.ts';
import { formatDate } from '../../i18n/dates.ts';

export interface DispatchAlertsProps {
  alerts: EmergencyAlert[];
  taking: boolean;
  onTake: (alertId: number) => void;
}

export function DispatchAlerts({ alerts, taking, onTake }: DispatchAlertsProps) {
  const { t, i18n } = useTranslation('dispatch');
  // Issue 60: lone workers of the desk's channels who answered no check, before their SOS.
  const silent = useLoneWorkerAlerts();
  if (alerts.length === 0 && silent.length === 0) return null;
  return (
    <Box
      component="section"
      aria-label={t('alerts.region')}
      sx={{ display: 'flex', flexDirection: 'column', gap: 1, mb: 2 }}
    >
      {alerts.map((alert) => (
        <Alert
          key={alert.id}
          severity="error"
          variant="filled"
          aria-label={t('alerts.one', { name: alert.display_name })}
          action={
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
              <Button color="inherit" variant="outlined" disabled={taking} onClick={() => onTake(alert.id)}>
                {t('alerts.take')}
              </Button>
              <CloseAlertButton alert={alert} color="inherit" variant="outlined" />
            </Box>
          }
        >
          <AlertTitle sx={{ fontWeight: 800 }}>
            <AlertReason alert={alert} /> ·{' '}
            {t('alerts.title', { name: alert.display_name, channel: alert.channelName ?? '' })}
          </AlertTitle>
          {t('alerts.at', { time: formatDate(alert.createdAt, 'HH:mm:ss', i18n.resolvedLanguage) })}
        </Alert>
      ))}
      <LoneWorkerAlertList alerts={silent} />
    </Box>
  );
}
