/**
 * The SOS button: held for 2 s (a countdown the user sees and hears read out; letting go cancels), it sends
 * an emergency alert with the position when the browser can give one quickly. Pointer, touch and keyboard
 * (Space or Enter held). The sender then hears its own alert taken (emergencyAcknowledged on its room).
 */

import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import { type EmergencyAlert, SendEmergencyAlert } from '@talkgroup/protocol';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../api/client.ts';

export const HOLD_MS = 2000;
/** A position older than this is not where the sender is any more. */
const POSITION_MAX_AGE_MS = 120_000;
const POSITION_WAIT_MS = 3000;

type Position = { lat: number; lng: number; accuracy?: number };

/** The browser's position if it can give one within a few seconds; never waits for a permission prompt. */
export function quickPosition(): Promise<Position | undefined> {
  if (!('geolocation' in navigator)) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), POSITION_WAIT_MS);
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        clearTimeout(timer);
        resolve({ lat: coords.latitude, lng: coords.longitude, accuracy: coords.accuracy });
      },
      () => {
        clearTimeout(timer);
        resolve(undefined);
      },
      { maximumAge: POSITION_MAX_AGE_MS, timeout: POSITION_WAIT_MS, enableHighAccuracy: true },
    );
  });
}

type Phase =
  | { kind: 'idle' }
  | { kind: 'holding'; left: number }
  | { kind: 'cancelled' }
  | { kind: 'sending' }
  | { kind: 'sent'; alert: EmergencyAlert }
  | { kind: 'failed'; message: string };

export function SosButton({
  channelId,
  size = 72,
  acknowledgedBy,
}: {
  channelId?: number;
  size?: number;
  /** Who took this user's latest alert, when the room heard it. */
  acknowledgedBy?: { alertId: number; name: string } | null;
}) {
  const { t } = useTranslation('emergency');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  const holding = useRef(false);
  const statusId = useId();

  const clear = useCallback(() => {
    for (const timer of timers.current) clearTimeout(timer);
    timers.current = [];
  }, []);
  useEffect(() => clear, [clear]);

  const send = useCallback(async () => {
    setPhase({ kind: 'sending' });
    const position = await quickPosition();
    try {
      const { res } = await api(SendEmergencyAlert, { ...(channelId ? { channelId } : {}), ...(position ?? {}) });
      setPhase({ kind: 'sent', alert: res });
    } catch (error) {
      setPhase({ kind: 'failed', message: errorMessage(error, t('sos.failed')) });
    }
  }, [channelId, t]);

  const start = () => {
    if (holding.current || phase.kind === 'sending') return;
    holding.current = true;
    clear();
    setPhase({ kind: 'holding', left: Math.ceil(HOLD_MS / 1000) });
    for (let second = 1; second < HOLD_MS / 1000; second++) {
      timers.current.push(
        setTimeout(() => setPhase({ kind: 'holding', left: Math.ceil(HOLD_MS / 1000) - second }), second * 1000),
      );
    }
    timers.current.push(
      setTimeout(() => {
        holding.current = false;
        void send();
      }, HOLD_MS),
    );
  };
  const stop = () => {
    if (!holding.current) return;
    holding.current = false;
    clear();
    setPhase({ kind: 'cancelled' });
  };

  const status =
    phase.kind === 'holding'
      ? t('sos.countdown', { seconds: phase.left })
      : phase.kind === 'cancelled'
        ? t('sos.cancelled')
        : phase.kind === 'sending'
          ? t('sos.sending')
          : phase.kind === 'sent'
            ? acknowledgedBy && acknowledgedBy.alertId === phase.alert.id
              ? t('sos.acknowledged', { name: acknowledgedBy.name })
              : t('sos.sent')
            : phase.kind === 'failed'
              ? phase.message
              : t('sos.hint');

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
      <ButtonBase
        aria-label={t('sos.label')}
        aria-describedby={statusId}
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture?.(event.pointerId);
          start();
        }}
        onPointerUp={stop}
        onPointerCancel={stop}
        onLostPointerCapture={stop}
        onContextMenu={(event) => event.preventDefault()}
        onKeyDown={(event) => {
          if ((event.key === ' ' || event.key === 'Enter') && !event.repeat) {
            event.preventDefault();
            start();
          }
        }}
        onKeyUp={(event) => {
          if (event.key === ' ' || event.key === 'Enter') stop();
        }}
        onBlur={stop}
        sx={{
          width: size,
          height: size,
          flexShrink: 0,
          borderRadius: '50%',
          bgcolor: phase.kind === 'holding' ? '#7f0000' : '#c62828',
          color: '#fff',
          fontWeight: 900,
          fontSize: size / 3.6,
          letterSpacing: 1,
          boxShadow: 3,
          touchAction: 'none',
          userSelect: 'none',
          outlineOffset: 3,
          '&.Mui-focusVisible': { outline: '3px solid #f2a541' },
        }}
      >
        {phase.kind === 'holding' ? phase.left : t('sos.button')}
      </ButtonBase>
      <Typography id={statusId} role="status" aria-live="assertive" variant="body2" sx={{ fontWeight: 600 }}>
        {status}
      </Typography>
    </Box>
  );
}
