/**
 * An administrator's SOS banner, over every console page: the newest open alert (who, which channel, when,
 * where), a siren until someone takes it or it is silenced, its position on a map, and "take the alert".
 * Alerts taken meanwhile say by whom. Impossible to miss: a red band fixed at the top, an assertive live
 * region.
 */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { EmergencyAlert } from '@talkgroup/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { formatDate } from '../../i18n/dates.ts';
import { AlertMapDialog } from './AlertMapDialog.tsx';
import { startAlarm, stopAlarm } from './alarm.ts';
import { useEmergencyAlerts } from './useEmergencyAlerts.ts';

function PositionText({ alert }: { alert: EmergencyAlert }) {
  const { t } = useTranslation('emergency');
  if (alert.lat === null || alert.lng === null) return <span>{t('banner.noPosition')}</span>;
  return (
    <span data-testid="sos-position">
      {t('banner.position', { latitude: alert.lat.toFixed(5), longitude: alert.lng.toFixed(5) })}
      {alert.accuracy !== null ? ` ${t('banner.accuracy', { meters: Math.round(alert.accuracy) })}` : ''}
    </span>
  );
}

export function EmergencyCenter() {
  const { t } = useTranslation('emergency');
  const { open, taken, acknowledge, dismissTaken } = useEmergencyAlerts();
  const [muted, setMuted] = useState<Set<number>>(new Set());
  const [mapOf, setMapOf] = useState<EmergencyAlert | null>(null);
  const newest = open[0];
  const sounding = open.some((alert) => !muted.has(alert.id));

  useEffect(() => {
    if (sounding) startAlarm();
    else stopAlarm();
  }, [sounding]);
  useEffect(() => stopAlarm, []);

  return (
    <Box
      component="section"
      aria-label={t('banner.region')}
      sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: 1600, pointerEvents: 'none' }}
    >
      <div role="alert" aria-live="assertive">
        {newest ? (
          <Alert
            severity="error"
            variant="filled"
            icon={false}
            data-testid="sos-banner"
            sx={{
              borderRadius: 0,
              pointerEvents: 'auto',
              boxShadow: 6,
              bgcolor: '#b71c1c',
              '& .MuiAlert-message': { width: '100%' },
            }}
          >
            <AlertTitle sx={{ fontWeight: 800, letterSpacing: 1 }}>
              {t('banner.title')} — {t('banner.from', { name: newest.display_name })}
            </AlertTitle>
            <Typography component="p" variant="body2">
              {newest.channelName ? `${t('banner.inChannel', { channel: newest.channelName })} · ` : ''}
              {t('banner.at', { time: formatDate(newest.createdAt, 'HH:mm:ss') })} · <PositionText alert={newest} />
            </Typography>
            {open.length > 1 ? (
              <Typography component="p" variant="body2">
                {t('banner.more', { count: open.length - 1 })}
              </Typography>
            ) : null}
            {acknowledge.error ? (
              <Typography component="p" variant="body2">
                {errorMessage(acknowledge.error, t('banner.failed'))}
              </Typography>
            ) : null}
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
              <Button
                variant="contained"
                color="inherit"
                sx={{ color: '#b71c1c', fontWeight: 700, minHeight: 44 }}
                disabled={acknowledge.isPending}
                onClick={() => acknowledge.mutate({ alertId: newest.id })}
              >
                {t('banner.acknowledge')}
              </Button>
              {newest.lat !== null ? (
                <Button variant="outlined" color="inherit" sx={{ minHeight: 44 }} onClick={() => setMapOf(newest)}>
                  {t('banner.showMap')}
                </Button>
              ) : null}
              <Button
                variant="outlined"
                color="inherit"
                sx={{ minHeight: 44 }}
                onClick={() =>
                  setMuted((known) => {
                    const next = new Set(known);
                    if (sounding) for (const alert of open) next.add(alert.id);
                    else next.clear();
                    return next;
                  })
                }
              >
                {sounding ? t('banner.mute') : t('banner.unmute')}
              </Button>
            </Box>
          </Alert>
        ) : null}
        {taken.map((alert) => (
          <Alert
            key={alert.id}
            severity="success"
            variant="filled"
            sx={{ borderRadius: 0, pointerEvents: 'auto', bgcolor: '#1b5e20' }}
            onClose={() => dismissTaken(alert.id)}
            slotProps={{ closeButton: { title: t('banner.dismiss'), 'aria-label': t('banner.dismiss') } }}
          >
            {t('banner.acknowledgedBy', { name: alert.display_name, by: alert.acknowledgedBy?.display_name ?? '' })}
          </Alert>
        ))}
      </div>
      {mapOf ? <AlertMapDialog alert={mapOf} onClose={() => setMapOf(null)} /> : null}
    </Box>
  );
}
