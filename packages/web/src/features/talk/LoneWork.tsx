/**
 * Lone work on /talk (issue 60). `LoneWorkSwitch`: "Travail isolé" on and off (startLoneWorker,
 * stopLoneWorker), the next check's time, and, when the organisation requires it for the member's role or one
 * of its channels, a sentence instead of a way to stop it. `LoneWorkPrompt`, on every /talk page: started by
 * itself when required; on `lone_worker_check` (or an open check found when the page opens, from a push's
 * tap), "Tout va bien ?" with a tone repeated and vibration until "Je vais bien" (checkIn) answers it. A press
 * of the talk button answers too (the server counts a granted floor): the prompt then closes on the next read.
 * Issue 70: once its SOS is raised the prompt closes (the dock's alert band says so), and the switch never shows a
 * next check's time that has passed.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { CheckIn, GetMyLoneWorker, type LoneWorkerCheck, StartLoneWorker, StopLoneWorker } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { callKey, useApiMutation, useApiQuery } from '../../api/queries.ts';
import { useServerEvent, useServerEvents } from '../../api/serverEvents.ts';
import { playNotes } from '../../components/tones.ts';
import { formatDate } from '../../i18n/dates.ts';

const MINE = callKey(GetMyLoneWorker, {});

function useMyLoneWorker() {
  const client = useQueryClient();
  const mine = useApiQuery(GetMyLoneWorker, {}, { refetchInterval: 60_000 });
  const written = { onSuccess: (answer: unknown) => client.setQueryData(MINE, answer) };
  const start = useApiMutation(StartLoneWorker, written);
  const stop = useApiMutation(StopLoneWorker, written);
  const checkIn = useApiMutation(CheckIn, written);
  return { mine, start, stop, checkIn };
}

/** Issue 70: whether this time has passed, turning true when it does ("Prochain contrôle à 05:52" goes then). */
function usePast(iso: string | undefined): boolean {
  const at = iso ? Date.parse(iso) : Number.NaN;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (Number.isNaN(at) || at <= Date.now()) return;
    const timer = setTimeout(() => setNow(Date.now()), at - Date.now() + 250);
    return () => clearTimeout(timer);
  }, [at]);
  return !Number.isNaN(at) && at <= Math.max(now, Date.now());
}

export function LoneWorkSwitch() {
  const { t, i18n } = useTranslation('safety');
  const { mine, start, stop } = useMyLoneWorker();
  const current = mine.data?.res ?? null;
  const required = mine.data?.required ?? false;
  const error = start.error ?? stop.error;
  const overdue = usePast(current?.nextCheckAt);
  return (
    <Box component="section" aria-labelledby="lone-work-title" sx={{ display: 'flex', flexDirection: 'column' }}>
      <Typography id="lone-work-title" component="h2" variant="subtitle1" sx={{ fontWeight: 700 }}>
        {t('loneWork.title')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 0.5 }}>
        {t('loneWork.help')}
      </Typography>
      <FormControlLabel
        sx={{ minHeight: 44 }}
        control={
          <Switch
            checked={current !== null}
            disabled={!mine.data || start.isPending || stop.isPending || (required && current !== null)}
            onChange={(event) => (event.target.checked ? start.mutate({}) : stop.mutate({}))}
          />
        }
        label={t('loneWork.switch')}
      />
      {current ? (
        <Typography variant="body2" role="status">
          {current.state === 'escalated'
            ? t('loneWork.escalated')
            : current.state !== 'ok' || overdue
              ? t('loneWork.overdue')
              : t('loneWork.next', { time: formatDate(current.nextCheckAt, 'HH:mm', i18n.resolvedLanguage) })}
        </Typography>
      ) : null}
      {required ? <Typography variant="body2">{t('loneWork.required')}</Typography> : null}
      {error ? <Alert severity="error">{errorMessage(error, t('loneWork.failed'))}</Alert> : null}
    </Box>
  );
}

/** A bright three-note call, repeated, and a vibration: a prompt a worker in a noisy place notices. */
function useAttention(on: boolean) {
  useEffect(() => {
    if (!on) return;
    const ring = () => {
      playNotes([880, 1175, 1568], { noteSeconds: 0.16, level: 0.3, wave: 'square' });
      navigator.vibrate?.([400, 200, 400, 200, 400]);
    };
    ring();
    const timer = setInterval(ring, 4000);
    return () => {
      clearInterval(timer);
      navigator.vibrate?.(0);
    };
  }, [on]);
}

export function LoneWorkPrompt() {
  const { t, i18n } = useTranslation('safety');
  const { mine, start, checkIn } = useMyLoneWorker();
  const [check, setCheck] = useState<LoneWorkerCheck | null>(null);
  const autoStarted = useRef(false);
  const state = mine.data?.res?.state;

  useServerEvent('lone_worker_check', (payload) => {
    setCheck(payload);
    void mine.refetch();
  });
  // A check sent while this page was closed or offline (a push's tap opens it): the server's state says so.
  useServerEvents(['lone_worker_check'], () => void mine.refetch(), 1000, { firstConnection: true });
  // Issue 70: the SOS of missed checks makes the prompt stale (the alert's band takes over), and "Je vais bien" said
  // on that band starts the round again.
  useServerEvent('emergencyAlert', (alert) => (alert.reason === 'lone_worker' ? void mine.refetch() : undefined));
  useServerEvent('emergencyOk', (alert) => (alert.reason === 'lone_worker' ? void mine.refetch() : undefined));
  useEffect(() => {
    if (state === 'due' || state === 'missed') setCheck((known) => known ?? { dueAt: '' });
    // Answered elsewhere (another device, a press of the talk button), or past: its SOS was raised.
    if (state === 'ok' || state === 'escalated' || state === undefined) setCheck(null);
  }, [state]);
  // Required by the organisation: the server starts it with the worker's first socket (issue 69); /talk starts it
  // too, once per page, should it find it off.
  useEffect(() => {
    if (!mine.data?.required || mine.data.res !== null || autoStarted.current) return;
    autoStarted.current = true;
    start.mutate({});
  }, [mine.data, start]);
  useAttention(check !== null);

  const time = check?.dueAt ? formatDate(check.dueAt, 'HH:mm:ss', i18n.resolvedLanguage) : '';
  return (
    <Dialog open={check !== null} aria-labelledby="lone-worker-check-title">
      <DialogTitle id="lone-worker-check-title" sx={{ fontWeight: 800, fontSize: '1.6rem' }}>
        {t('check.title')}
      </DialogTitle>
      <DialogContent>
        {time ? <Typography>{t(check?.reminder ? 'check.reminder' : 'check.body', { time })}</Typography> : null}
        {checkIn.error ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            {errorMessage(checkIn.error, t('check.failed'))}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions sx={{ p: 2 }}>
        <Button
          variant="contained"
          color="success"
          size="large"
          fullWidth
          sx={{ minHeight: 64, fontSize: '1.2rem', fontWeight: 800 }}
          disabled={checkIn.isPending}
          onClick={() => checkIn.mutate({}, { onSuccess: () => setCheck(null) })}
        >
          {t('check.ok')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
