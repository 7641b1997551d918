/**
 * Zone alerts on every console page (for administrators and dispatchers): each `geofenceAlert` the server
 * pushes shows as a card at the bottom right — who, entered or left which zone, when — with the member on a
 * map ("Show on map") and a chime if this device asked for one (off by default). The newest few stay until
 * dismissed; a polite live region reads them out.
 */
import Close from '@mui/icons-material/Close';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import type { GeofenceAlert } from '@talkgroup/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerEvent } from '../../api/serverEvents.ts';
import { formatDate } from '../../i18n/dates.ts';
import { chime, useAlertSound } from './alertSound.ts';
import { GeofenceAlertMapDialog } from './GeofenceAlertMapDialog.tsx';

const KEPT = 4;

type Shown = GeofenceAlert & { key: string };

export function useGeofenceAlerts() {
  const [alerts, setAlerts] = useState<Shown[]>([]);
  const [sound] = useAlertSound();
  useServerEvent('geofenceAlert', (alert) => {
    if (sound) chime(alert.kind);
    const key = `${alert.geofenceId}-${alert.userId}-${alert.at}-${alert.kind}`;
    setAlerts((known) => [{ ...alert, key }, ...known.filter((other) => other.key !== key)].slice(0, KEPT));
  });
  return { alerts, dismiss: (key: string) => setAlerts((known) => known.filter((alert) => alert.key !== key)) };
}

export function GeofenceAlerts() {
  const { t, i18n } = useTranslation('tracking');
  const { alerts, dismiss } = useGeofenceAlerts();
  const [sound, setSound] = useAlertSound();
  const [mapOf, setMapOf] = useState<GeofenceAlert | null>(null);
  return (
    <Box
      component="section"
      aria-label={t('alerts.region')}
      sx={{
        position: 'fixed',
        right: 16,
        bottom: 16,
        // Above the page and its bars, below dialogs (MUI's modal is 1300): "Show on map" opens one.
        zIndex: 1250,
        width: 360,
        maxWidth: 'calc(100vw - 32px)',
        display: 'grid',
        gap: 1,
        pointerEvents: 'none',
      }}
    >
      <div role="log" aria-live="polite" style={{ display: 'grid', gap: 8 }}>
        {alerts.map((alert) => {
          const sentence = t(alert.kind === 'enter' ? 'alerts.enter' : 'alerts.exit', {
            user: alert.userName,
            zone: alert.name,
          });
          return (
            <Alert
              key={alert.key}
              severity={alert.kind === 'enter' ? 'info' : 'warning'}
              variant="filled"
              sx={{ pointerEvents: 'auto', boxShadow: 4 }}
              action={
                <IconButton
                  color="inherit"
                  size="small"
                  aria-label={t('alerts.dismiss')}
                  onClick={() => dismiss(alert.key)}
                >
                  <Close fontSize="small" />
                </IconButton>
              }
            >
              <div>
                <strong>{sentence}</strong>{' '}
                {t('alerts.at', { time: formatDate(alert.at, 'HH:mm:ss', i18n.resolvedLanguage) })}
              </div>
              <Button color="inherit" size="small" variant="outlined" sx={{ mt: 1 }} onClick={() => setMapOf(alert)}>
                {t('alerts.showOnMap')}
              </Button>
            </Alert>
          );
        })}
      </div>
      {alerts.length > 0 ? (
        <Paper sx={{ pointerEvents: 'auto', px: 1.5, py: 0.25, justifySelf: 'end' }}>
          <FormControlLabel
            control={<Switch size="small" checked={sound} onChange={(event) => setSound(event.target.checked)} />}
            label={t('alerts.sound')}
          />
        </Paper>
      ) : null}
      {mapOf ? <GeofenceAlertMapDialog alert={mapOf} onClose={() => setMapOf(null)} /> : null}
    </Box>
  );
}
