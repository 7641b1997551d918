/**
 * Man-down detection on /talk (issue 60). `ManDownSwitch`, on the home page: "Détection de chute" on and off
 * (kept in this browser; on iOS-like browsers the tap asks for the motion sensors), with what it watches and
 * its limit said plainly: it works only while /talk is open and the screen on. `ManDownWatch`, on every /talk
 * page while it is on: holds a screen wake lock, feeds `devicemotion` to the detector, and on a fall (or no
 * movement for the organisation's minutes) counts down with a loud tone and vibration. "Je vais bien" cancels;
 * at zero an SOS with reason 'man_down' is sent, with the channel on screen and the position when the browser
 * gives one, and the page says it was sent.
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
import { GetSafetySettings, SAFETY_DEFAULTS, SendEmergencyAlert } from '@talkgroup/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatch } from 'react-router';
import { api, errorMessage } from '../../../api/client.ts';
import { useApiQuery } from '../../../api/queries.ts';
import { playNotes } from '../../../components/tones.ts';
import { quickPosition } from '../../../engines/emergency/index.ts';
import { useScreenWakeLock, wakeLockSupported } from '../useWakeLock.ts';
import { createManDownDetector, type ManDownEvent } from './detector.ts';
import { allowMotion, motionSupported, setManDown, useManDownOn } from './manDownSwitch.ts';

/** The organisation's figures; the defaults while they load or when the server cannot be reached. */
function useManDownSettings() {
  const settings = useApiQuery(GetSafetySettings, {}, { staleTime: 60_000 });
  return settings.data?.res.manDown ?? SAFETY_DEFAULTS.manDown;
}

export function ManDownSwitch() {
  const { t } = useTranslation('safety');
  const on = useManDownOn();
  const figures = useManDownSettings();
  const [denied, setDenied] = useState(false);
  const supported = motionSupported();

  const change = async (next: boolean) => {
    if (!next) return setManDown(false);
    // Asked within the tap: iOS shows its prompt only for a user's gesture.
    const allowed = await allowMotion();
    setDenied(!allowed);
    if (allowed) setManDown(true);
  };

  return (
    <Box component="section" aria-labelledby="man-down-title" sx={{ display: 'flex', flexDirection: 'column' }}>
      <Typography id="man-down-title" component="h2" variant="subtitle1" sx={{ fontWeight: 700 }}>
        {t('manDown.title')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('manDown.help')}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 600, mb: 0.5 }}>
        {t('manDown.limits')}
      </Typography>
      <FormControlLabel
        sx={{ minHeight: 44 }}
        control={<Switch checked={on} disabled={!supported} onChange={(event) => void change(event.target.checked)} />}
        label={t('manDown.switch')}
      />
      {on ? (
        <Typography variant="body2" role="status">
          {t('manDown.watching', { still: figures.stillSeconds, countdown: figures.countdownSeconds })}
          {figures.noMotionMinutes > 0 ? ` ${t('manDown.watchingStill', { minutes: figures.noMotionMinutes })}` : ''}
        </Typography>
      ) : null}
      {on && !wakeLockSupported() ? <Alert severity="warning">{t('manDown.noWakeLock')}</Alert> : null}
      {!supported ? <Alert severity="info">{t('manDown.unsupported')}</Alert> : null}
      {denied ? <Alert severity="error">{t('manDown.denied')}</Alert> : null}
    </Box>
  );
}

/** Louder and faster than the lone-worker prompt: someone may be lying hurt with the phone in a pocket. */
function useAlarm(on: boolean) {
  useEffect(() => {
    if (!on) return;
    const ring = () => {
      playNotes([1568, 0, 1568, 0, 1568], { noteSeconds: 0.14, level: 0.5, wave: 'square' });
      navigator.vibrate?.([500, 200, 500]);
    };
    ring();
    const timer = setInterval(ring, 1200);
    return () => {
      clearInterval(timer);
      navigator.vibrate?.(0);
    };
  }, [on]);
}

type Phase =
  | { kind: 'watching' }
  | { kind: 'counting'; cause: ManDownEvent; endsAt: number; left: number }
  | { kind: 'sending' }
  | { kind: 'sent' }
  | { kind: 'failed'; message: string };

export function ManDownWatch() {
  const on = useManDownOn();
  const figures = useManDownSettings();
  const { stillSeconds, noMotionMinutes, countdownSeconds } = figures;
  const [phase, setPhase] = useState<Phase>({ kind: 'watching' });
  const busy = useRef(false);
  busy.current = phase.kind !== 'watching';
  const detector = useRef<ReturnType<typeof createManDownDetector> | null>(null);
  // The channel on screen, as the SOS button sends it; elsewhere the server takes the member's own.
  const channelId = Number(useMatch('/talk/:channelId')?.params.channelId) || undefined;
  useScreenWakeLock(on);

  useEffect(() => {
    if (!on) return;
    const watch = createManDownDetector({ stillSeconds, noMotionMinutes });
    detector.current = watch;
    const listener = (event: DeviceMotionEvent) => {
      const { x, y, z } = event.accelerationIncludingGravity ?? {};
      if (x == null || y == null || z == null || busy.current) return;
      const cause = watch.push({ x, y, z, t: event.timeStamp });
      if (!cause) return;
      const endsAt = Date.now() + countdownSeconds * 1000;
      setPhase({ kind: 'counting', cause, endsAt, left: countdownSeconds });
    };
    window.addEventListener('devicemotion', listener);
    return () => window.removeEventListener('devicemotion', listener);
  }, [on, stillSeconds, noMotionMinutes, countdownSeconds]);

  const send = useCallback(async () => {
    setPhase({ kind: 'sending' });
    const position = await quickPosition();
    try {
      await api(SendEmergencyAlert, { reason: 'man_down', ...(channelId ? { channelId } : {}), ...(position ?? {}) });
      setPhase({ kind: 'sent' });
    } catch (error) {
      setPhase({ kind: 'failed', message: errorMessage(error, '') });
    }
  }, [channelId]);

  const counting = phase.kind === 'counting' ? phase : null;
  useEffect(() => {
    if (!counting) return;
    const timer = setInterval(() => {
      const left = Math.ceil((counting.endsAt - Date.now()) / 1000);
      if (left <= 0) {
        clearInterval(timer);
        void send();
      } else if (left !== counting.left) setPhase({ ...counting, left });
    }, 200);
    return () => clearInterval(timer);
  }, [counting, send]);
  useAlarm(counting !== null);

  const close = () => {
    detector.current?.reset();
    setPhase({ kind: 'watching' });
  };
  return <ManDownDialog phase={phase} onOk={close} onRetry={() => void send()} />;
}

function ManDownDialog({ phase, onOk, onRetry }: { phase: Phase; onOk: () => void; onRetry: () => void }) {
  const { t } = useTranslation('safety');
  const title =
    phase.kind === 'counting'
      ? t(phase.cause === 'fall' ? 'manDown.fall' : 'manDown.noMotion', { seconds: phase.left })
      : phase.kind === 'sending'
        ? t('manDown.sending')
        : phase.kind === 'sent'
          ? t('manDown.sentTitle')
          : t('manDown.failedTitle');
  const big = { minHeight: 64, fontSize: '1.2rem', fontWeight: 800 };
  return (
    <Dialog open={phase.kind !== 'watching'} aria-labelledby="man-down-dialog-title" fullWidth>
      <DialogTitle id="man-down-dialog-title" sx={{ fontWeight: 800, fontSize: '1.6rem' }}>
        {title}
      </DialogTitle>
      <DialogContent>
        {phase.kind === 'counting' ? <Typography>{t('manDown.body')}</Typography> : null}
        {phase.kind === 'sent' ? <Typography role="status">{t('manDown.sent')}</Typography> : null}
        {phase.kind === 'failed' ? <Alert severity="error">{phase.message || t('manDown.failed')}</Alert> : null}
      </DialogContent>
      <DialogActions sx={{ p: 2, flexDirection: 'column', gap: 1 }}>
        {phase.kind === 'failed' ? (
          <Button variant="contained" color="error" size="large" fullWidth sx={big} onClick={onRetry}>
            {t('manDown.retry')}
          </Button>
        ) : null}
        {phase.kind === 'sent' ? (
          <Button variant="outlined" size="large" fullWidth sx={{ minHeight: 48 }} onClick={onOk}>
            {t('manDown.close')}
          </Button>
        ) : (
          <Button
            variant="contained"
            color="success"
            size="large"
            fullWidth
            sx={{ ...big, ml: '0 !important' }}
            disabled={phase.kind === 'sending'}
            onClick={onOk}
          >
            {t('manDown.ok')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
