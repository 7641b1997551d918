/**
 * A member's status with its age (issue 49): "Sur place · 12 min", its colour as a dot, in the page's
 * language. The age moves every minute (one shared ticker for every chip of the page); the chip's accessible
 * name reads the same as its text, followed by who set it when a dispatcher did.
 */
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import type { Status } from '@talkgroup/protocol';
import type { TFunction } from 'i18next';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { toLanguage } from '../i18n/languages.ts';

const MINUTE_MS = 60_000;

let now = Date.now();
const listeners = new Set<() => void>();
let ticker: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  now = Date.now();
  ticker ??= setInterval(() => {
    now = Date.now();
    for (const notify of listeners) notify();
  }, MINUTE_MS / 4);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };
}

/** The time now, moving every quarter of a minute while a chip is shown (an age moves by the minute). */
function useMinuteNow(): number {
  return (
    useSyncExternalStore(
      subscribe,
      () => Math.floor(now / (MINUTE_MS / 4)),
      () => 0,
    ) *
    (MINUTE_MS / 4)
  );
}

/** "< 1 min", "12 min", "1 h 05", "2 j" in the page's language. */
export function statusAge(t: TFunction, sinceMs: number, nowMs: number): string {
  const minutes = Math.max(0, Math.floor((nowMs - sinceMs) / MINUTE_MS));
  if (minutes < 1) return t('statusChip.justNow');
  if (minutes < 60) return t('statusChip.minutes', { count: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return t('statusChip.hours', { hours, minutes: String(minutes % 60).padStart(2, '0') });
  return t('statusChip.days', { count: Math.floor(hours / 24) });
}

export function StatusChip({
  status,
  since,
  setBy,
  size = 'small',
}: {
  status: Status;
  /** When it was set (ISO); no age shown without it. */
  since?: string | null;
  /** Who set it, when not the member itself. */
  setBy?: { name: string } | null;
  size?: 'small' | 'medium';
}) {
  const { t, i18n } = useTranslation();
  const nowMs = useMinuteNow();
  const label = status.label[toLanguage(i18n.resolvedLanguage)];
  const sinceMs = since ? Date.parse(since) : Number.NaN;
  const text = Number.isNaN(sinceMs) ? label : t('statusChip.withAge', { label, age: statusAge(t, sinceMs, nowMs) });
  const name = setBy ? `${text} (${t('statusChip.setBy', { name: setBy.name })})` : text;
  return (
    <Chip
      role="img"
      aria-label={name}
      title={name}
      size={size}
      variant="outlined"
      icon={
        <Box
          component="span"
          aria-hidden
          sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: status.color, flex: 'none', ml: '8px !important' }}
        />
      }
      label={text}
      sx={{ borderColor: status.color, maxWidth: '100%', fontVariantNumeric: 'tabular-nums' }}
    />
  );
}
