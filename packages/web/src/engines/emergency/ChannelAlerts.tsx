/**
 * SOS alerts as a channel's room hears them (emergencyAlert / emergencyAcknowledged pushed to the rooms of
 * the sender's channels): the others' alerts are shown to everyone in the room; the sender learns who took
 * its own. A closed alert says who closed it and how it turned out.
 */
import Alert from '@mui/material/Alert';
import type { EmergencyAlert } from '@talkgroup/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TalkgroupSocket } from '../../api/socket.ts';
import { useClosedSentence } from './CloseAlert.tsx';

export function useChannelAlerts(socket: TalkgroupSocket | null, selfId: number | undefined) {
  const [alerts, setAlerts] = useState<EmergencyAlert[]>([]);
  useEffect(() => {
    if (!socket) return;
    const upsert = (alert: EmergencyAlert) =>
      setAlerts((known) => [alert, ...known.filter((other) => other.id !== alert.id)].slice(0, 5));
    socket.on('emergencyAlert', upsert);
    socket.on('emergencyAcknowledged', upsert);
    return () => {
      socket.off('emergencyAlert', upsert);
      socket.off('emergencyAcknowledged', upsert);
    };
  }, [socket]);
  const own = alerts.find((alert) => alert.userId === selfId && alert.acknowledgedBy);
  return {
    others: alerts.filter((alert) => alert.userId !== selfId),
    ownTaken: own ? { alertId: own.id, name: own.acknowledgedBy?.display_name ?? '' } : null,
  };
}

export function ChannelAlertList({ alerts }: { alerts: EmergencyAlert[] }) {
  const { t } = useTranslation('emergency');
  const closedSentence = useClosedSentence();
  if (alerts.length === 0) return null;
  return (
    <div role="alert">
      {alerts.map((alert) => (
        <Alert key={alert.id} severity={alert.acknowledgedBy ? 'success' : 'error'} sx={{ mb: 1 }}>
          {alert.closedAt
            ? closedSentence(alert)
            : alert.acknowledgedBy
              ? t('channel.alertAcknowledged', { name: alert.display_name, by: alert.acknowledgedBy.display_name })
              : t('channel.alert', { name: alert.display_name })}
        </Alert>
      ))}
    </div>
  );
}
