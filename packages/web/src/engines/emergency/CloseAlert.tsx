/**
 * Closing an SOS with its outcome (issue 50): "Close the alert" opens a small dialog asking whether it was a
 * real emergency or a false alarm (nothing chosen beforehand: the report counts false alarms), then
 * closeEmergencyAlert; an open alert is taken by the same step. Shown to administrators for every alert, and
 * to dispatchers for the alerts of a channel (the server checks it is one of theirs). Also the sentence that
 * says how a closed alert turned out and who closed it.
 */
import Button, { type ButtonProps } from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import type { EmergencyAlert, EmergencyOutcome } from '@talkgroup/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { useMay } from '../../api/session.ts';
import { useCloseEmergencyAlert } from './useEmergencyAlerts.ts';

/** "Alice's alert was closed by Bob: false alarm." (empty while the alert is not closed). */
export function useClosedSentence(): (alert: EmergencyAlert) => string {
  const { t } = useTranslation('emergency');
  return (alert) =>
    alert.closedAt
      ? t(alert.outcome === 'false' ? 'closing.closedFalse' : 'closing.closedReal', {
          name: alert.display_name,
          by: alert.closedBy?.display_name ?? '',
        })
      : '';
}

function CloseAlertDialog({ alert, onClose }: { alert: EmergencyAlert; onClose: () => void }) {
  const { t } = useTranslation('emergency');
  const [outcome, setOutcome] = useState<EmergencyOutcome | ''>('');
  const close = useCloseEmergencyAlert();
  const titleId = `sos-close-${alert.id}`;
  const confirm = () => {
    if (outcome === '') return;
    close.mutate({ alertId: alert.id, outcome }, { onSuccess: onClose });
  };
  return (
    // Above the SOS banner (fixed at the top, z-index 1600).
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs" sx={{ zIndex: 1700 }}>
      <DialogTitle id={titleId}>{t('closing.title', { name: alert.display_name })}</DialogTitle>
      <DialogContent>
        <FormControl>
          <FormLabel id={`${titleId}-outcome`}>{t('closing.outcome')}</FormLabel>
          <RadioGroup
            aria-labelledby={`${titleId}-outcome`}
            value={outcome}
            onChange={(event) => setOutcome(event.target.value as EmergencyOutcome)}
          >
            <FormControlLabel value="real" control={<Radio />} label={t('closing.real')} />
            <FormControlLabel value="false" control={<Radio />} label={t('closing.false')} />
          </RadioGroup>
        </FormControl>
        {close.error ? (
          <Typography role="alert" color="error" variant="body2" sx={{ mt: 1 }}>
            {errorMessage(close.error, t('closing.failed'))}
          </Typography>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('closing.cancel')}</Button>
        <Button variant="contained" color="error" disabled={outcome === '' || close.isPending} onClick={confirm}>
          {t('closing.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** "Close the alert" and its dialog; nothing for an alert already closed, or one this user may not close. */
export function CloseAlertButton({ alert, ...button }: { alert: EmergencyAlert } & Omit<ButtonProps, 'onClick'>) {
  const { t } = useTranslation('emergency');
  const everywhere = useMay().may('channel.alerts');
  const [asking, setAsking] = useState(false);
  if (alert.closedAt || (!everywhere && alert.channelId === null)) return null;
  return (
    <>
      <Button {...button} onClick={() => setAsking(true)}>
        {t('closing.button')}
      </Button>
      {asking ? <CloseAlertDialog alert={alert} onClose={() => setAsking(false)} /> : null}
    </>
  );
}
