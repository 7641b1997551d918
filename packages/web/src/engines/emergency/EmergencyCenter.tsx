/**
 * An administrator's SOS banner, over every console page: each open alert, newest first (who, which channel,
 * when, where), a siren until they are taken or it is silenced, each position on a map, "take the alert" and
 * "close the alert" (with its outcome, issue 50). Alerts taken meanwhile say by whom, and can be closed from
 * there; closed ones say by whom and how they turned out. Impossible to miss: a red band fixed at the top, an
 * assertive live region; the page moves down by its height (SOS_BAND_HEIGHT) rather than hide under it.
 */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { EmergencyAlert } from '@talkgroup/protocol';
import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { formatDate } from '../../i18n/dates.ts';
import { AlertMapDialog } from './AlertMapDialog.tsx';
import { AlertReason } from './AlertReason.tsx';
import { startAlarm, stopAlarm } from './alarm.ts';
import { CloseAlertButton, useClosedSentence } from './CloseAlert.tsx';
import { LoneWorkerAlertList, useLoneWorkerAlerts } from './LoneWorkerAlerts.tsx';
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

/** Issue 70: "{name} va bien, {time}", once the member said so after its alert. */
function okSentence(t: TFunction<'emergency'>, alert: EmergencyAlert): string {
  return t('banner.ok', { name: alert.display_name, time: formatDate(alert.okAt ?? '', 'HH:mm:ss') });
}

function OkLine({ alert }: { alert: EmergencyAlert }) {
  const { t } = useTranslation('emergency');
  if (!alert.okAt) return null;
  return (
    <Typography component="p" variant="body2" data-testid="sos-ok" sx={{ fontWeight: 800 }}>
      {okSentence(t, alert)}
    </Typography>
  );
}

/**
 * The band's height as `--sos-band-height` on the page's root (0 without alerts): the shells move their top bar
 * and content down by it, so that the band covers none of their controls (issue 58).
 */
export const SOS_BAND_HEIGHT = 'var(--sos-band-height, 0px)';

function useBandHeight() {
  const [element, setElement] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (!element || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => root.style.setProperty('--sos-band-height', `${element.offsetHeight}px`));
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--sos-band-height');
    };
  }, [element]);
  return setElement;
}

export function EmergencyCenter() {
  const { t } = useTranslation('emergency');
  const { open, taken, acknowledge, dismissTaken, ok, dismissOk } = useEmergencyAlerts();
  const [muted, setMuted] = useState<Set<number>>(new Set());
  const [mapOf, setMapOf] = useState<EmergencyAlert | null>(null);
  const closedSentence = useClosedSentence();
  // Issue 60: lone workers who answered no check (each arrival sounds once), until they answer or their SOS comes.
  const silent = useLoneWorkerAlerts();
  const sounding = open.some((alert) => !muted.has(alert.id));

  useEffect(() => {
    if (sounding) startAlarm();
    else stopAlarm();
  }, [sounding]);
  useEffect(() => stopAlarm, []);
  const band = useBandHeight();

  return (
    <Box
      ref={band}
      component="section"
      aria-label={t('banner.region')}
      sx={{ position: 'fixed', top: 0, left: 0, right: 0, zIndex: 1600, pointerEvents: 'none' }}
    >
      {/* Each alert is its own assertive live region (an Alert's role): a wrapping one would hold every alert's
          buttons, so that "Lea's alert" named all of them. */}
      <div>
        {/* Every open alert with its sender, newest first: none hides behind a count. */}
        <Box sx={{ maxHeight: '60vh', overflowY: 'auto', pointerEvents: 'auto' }}>
          {open.map((alert, index) => (
            <Alert
              key={alert.id}
              severity="error"
              variant="filled"
              icon={false}
              data-testid="sos-banner"
              aria-label={t('banner.one', { name: alert.display_name })}
              sx={{
                borderRadius: 0,
                boxShadow: 6,
                bgcolor: '#b71c1c',
                borderTop: index > 0 ? '1px solid rgba(255,255,255,0.35)' : 'none',
                '& .MuiAlert-message': { width: '100%' },
              }}
            >
              <AlertTitle sx={{ fontWeight: 800, letterSpacing: 1 }}>
                {t('banner.title')} — {t('banner.from', { name: alert.display_name })} · <AlertReason alert={alert} />
              </AlertTitle>
              <Typography component="p" variant="body2">
                {alert.channelName ? `${t('banner.inChannel', { channel: alert.channelName })} · ` : ''}
                {t('banner.at', { time: formatDate(alert.createdAt, 'HH:mm:ss') })} · <PositionText alert={alert} />
              </Typography>
              <OkLine alert={alert} />
              {index === 0 && acknowledge.error ? (
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
                  onClick={() => acknowledge.mutate({ alertId: alert.id })}
                >
                  {t('banner.acknowledge')}
                </Button>
                <CloseAlertButton
                  alert={alert}
                  variant="outlined"
                  color="inherit"
                  sx={{ minHeight: 44, fontWeight: 700 }}
                />
                {alert.lat !== null ? (
                  <Button variant="outlined" color="inherit" sx={{ minHeight: 44 }} onClick={() => setMapOf(alert)}>
                    {t('banner.showMap')}
                  </Button>
                ) : null}
                {index === 0 ? (
                  <Button
                    variant="outlined"
                    color="inherit"
                    sx={{ minHeight: 44 }}
                    onClick={() =>
                      setMuted((known) => {
                        const next = new Set(known);
                        if (sounding) for (const other of open) next.add(other.id);
                        else next.clear();
                        return next;
                      })
                    }
                  >
                    {sounding ? t('banner.mute') : t('banner.unmute')}
                  </Button>
                ) : null}
              </Box>
            </Alert>
          ))}
        </Box>
        <LoneWorkerAlertList alerts={silent} square />
        {taken.map((alert) => (
          <Alert
            key={alert.id}
            severity="success"
            variant="filled"
            sx={{ borderRadius: 0, pointerEvents: 'auto', bgcolor: '#1b5e20' }}
            onClose={() => dismissTaken(alert.id)}
            slotProps={{ closeButton: { title: t('banner.dismiss'), 'aria-label': t('banner.dismiss') } }}
          >
            {alert.closedAt
              ? closedSentence(alert)
              : t('banner.acknowledgedBy', { name: alert.display_name, by: alert.acknowledgedBy?.display_name ?? '' })}
            <CloseAlertButton alert={alert} size="small" variant="outlined" color="inherit" sx={{ ml: 2 }} />
            <OkLine alert={alert} />
          </Alert>
        ))}
      </div>
      {/* Issue 70: the notice of a member's "Je vais bien", for 10 s (the line stays on its alert). */}
      {ok ? (
        <Alert
          severity="success"
          variant="filled"
          role="status"
          data-testid="sos-ok-notice"
          sx={{ borderRadius: 0, pointerEvents: 'auto', bgcolor: '#1b5e20' }}
          onClose={dismissOk}
          slotProps={{ closeButton: { title: t('banner.dismiss'), 'aria-label': t('banner.dismiss') } }}
        >
          {okSentence(t, ok)}
        </Alert>
      ) : null}
      {mapOf ? <AlertMapDialog alert={mapOf} onClose={() => setMapOf(null)} /> : null}
    </Box>
  );
}
