/**
 * Lone workers who answered neither check (issue 60, `loneWorkerAlert`): "Sans réponse — {name}", their last
 * answer and last position, on the SOS band and the dispatch console, until they answer (getLoneWorkers, read
 * again on each alert and every 15 s) or the SOS that follows takes over. Who may read them: administrators
 * and the dispatchers of the member's channels.
 */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import { GetLoneWorkers, type LoneWorkerAlert } from '@talkgroup/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/queries.ts';
import { useServerEvent } from '../../api/serverEvents.ts';
import { playNotes } from '../../components/tones.ts';
import { formatDate } from '../../i18n/dates.ts';

export function useLoneWorkerAlerts(): LoneWorkerAlert[] {
  const workers = useApiQuery(GetLoneWorkers, {}, { refetchInterval: 15_000 });
  const [heard, setHeard] = useState<ReadonlyMap<number, LoneWorkerAlert>>(() => new Map());
  useServerEvent('loneWorkerAlert', (alert) => {
    setHeard((known) => new Map(known).set(alert.userId, alert));
    playNotes([988, 740, 988, 740], { noteSeconds: 0.18, level: 0.25, wave: 'square' });
    void workers.refetch();
  });
  return (workers.data?.res ?? [])
    .filter((worker) => worker.state === 'missed')
    .map(
      (worker) =>
        heard.get(worker.userId) ?? {
          userId: worker.userId,
          name: worker.name,
          lastCheckIn: worker.lastCheckIn,
          position: null,
        },
    );
}

export function LoneWorkerAlertList({ alerts, square = false }: { alerts: LoneWorkerAlert[]; square?: boolean }) {
  const { t, i18n } = useTranslation('safety');
  if (alerts.length === 0) return null;
  return (
    <Box component="section" aria-label={t('alert.region')} sx={{ pointerEvents: 'auto' }}>
      {alerts.map((alert) => (
        <Alert
          key={alert.userId}
          severity="warning"
          variant="filled"
          data-testid="lone-worker-alert"
          sx={{ borderRadius: square ? 0 : undefined, mb: square ? 0 : 1, bgcolor: '#e65100' }}
        >
          <AlertTitle sx={{ fontWeight: 800 }}>{t('alert.title', { name: alert.name })}</AlertTitle>
          {t('alert.lastCheckIn', { time: formatDate(alert.lastCheckIn, 'HH:mm', i18n.resolvedLanguage) })}
          {' · '}
          {alert.position
            ? t('alert.position', {
                latitude: alert.position.lat.toFixed(5),
                longitude: alert.position.lng.toFixed(5),
              })
            : t('alert.noPosition')}
        </Alert>
      ))}
    </Box>
  );
}
