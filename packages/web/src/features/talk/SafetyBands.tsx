/**
 * Issue 70: what the server did to the member's phone, said on every /talk page, in the dock above the SOS.
 * `MyAlertBand`: its alert while it is open ("Alerte envoyée à vos répartiteurs", then "Prise en charge par
 * {name}"), with "Je vais bien" (reportOk) that its dispatchers see at once. `OpenMicBand`: "Micro ouvert", why, and
 * the seconds left, while an alert holds its microphone open without its press.
 */
import MicIcon from '@mui/icons-material/Mic';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { EmergencyAlert, OpenMicAlert } from '@talkgroup/protocol';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import type { useMyEmergencyAlert } from '../../engines/emergency/index.ts';
import { formatDate } from '../../i18n/dates.ts';

export function MyAlertBand({ mine }: { mine: ReturnType<typeof useMyEmergencyAlert> }) {
  const { t, i18n } = useTranslation('safety');
  const { alert, reportOk } = mine;
  if (!alert) return null;
  const taken = alert.acknowledgedBy?.display_name;
  const time = (iso: string) => formatDate(iso, 'HH:mm', i18n.resolvedLanguage);
  return (
    <Alert
      severity={taken ? 'warning' : 'error'}
      variant="filled"
      icon={false}
      role="alert"
      aria-label={t('myAlert.region')}
      data-testid="my-alert-band"
      sx={{
        py: 0.5,
        '& .MuiAlert-message': { width: '100%', py: 0.5 },
        '& .MuiAlert-action': { alignItems: 'center' },
      }}
      action={
        <Button
          color="inherit"
          variant="outlined"
          disabled={reportOk.isPending}
          onClick={() => reportOk.mutate({ alertId: alert.id })}
          sx={{ minHeight: 44, fontWeight: 700, whiteSpace: 'nowrap' }}
        >
          {t('myAlert.ok')}
        </Button>
      }
    >
      <AlertTitle sx={{ fontWeight: 800, mb: 0 }}>
        {taken ? t('myAlert.taken', { name: taken }) : t('myAlert.sent')}
      </AlertTitle>
      <Typography variant="body2">
        {t('myAlert.detail', { reason: reasonOf(t, alert), time: time(alert.createdAt) })}
        {taken ? '' : ` · ${t('myAlert.waiting')}`}
      </Typography>
      {alert.okAt ? (
        <Typography variant="body2" sx={{ fontWeight: 700 }}>
          {t('myAlert.okSent', { time: time(alert.okAt) })}
        </Typography>
      ) : null}
      {reportOk.error ? (
        <Typography variant="body2">{errorMessage(reportOk.error, t('myAlert.okFailed'))}</Typography>
      ) : null}
    </Alert>
  );
}

type T = TFunction<'safety'>;

function reasonOf(t: T, alert: EmergencyAlert): string {
  const reason = t(`reason.${alert.reason}`);
  return alert.raisedBy ? `${reason} (${t('raisedBy', { name: alert.raisedBy.display_name })})` : reason;
}

function whyOf(t: T, alert: OpenMicAlert | undefined): string {
  if (alert?.raisedBy) return t('openMic.why.raised', { name: alert.raisedBy });
  return t(`openMic.why.${alert?.reason ?? 'sos'}`);
}

export function OpenMicBand({ openMic }: { openMic: { alert?: OpenMicAlert; secondsLeft: number } | null }) {
  const { t } = useTranslation('safety');
  if (!openMic) return null;
  return (
    <Alert
      severity="error"
      variant="filled"
      icon={<MicIcon />}
      role="status"
      data-testid="open-mic-band"
      sx={{ py: 0.25, bgcolor: '#7f0000', '& .MuiAlert-message': { py: 0.5 } }}
    >
      <AlertTitle sx={{ fontWeight: 800, mb: 0 }}>{t('openMic.title')}</AlertTitle>
      <Typography variant="body2">
        {t('openMic.left', { why: whyOf(t, openMic.alert), seconds: openMic.secondsLeft })}
      </Typography>
    </Alert>
  );
}
