/**
 * The period of an export dialog: two local date-time fields, "from" and "to", starting at the last `backMs`
 * each time the dialog opens; `range()` gives the period as dates, or null when it is not one (empty, or the end
 * not after the start).
 */
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';

/** A Date as the value of an <input type="datetime-local"> (local time, minutes). */
function localInput(date: Date): string {
  const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return shifted.toISOString().slice(0, 16);
}

export function usePeriod(open: boolean, backMs: number) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  useEffect(() => {
    if (!open) return;
    const now = Date.now();
    setFrom(localInput(new Date(now - backMs)));
    setTo(localInput(new Date(now + 60_000)));
  }, [open, backMs]);
  return {
    from,
    to,
    setFrom,
    setTo,
    range(): { start: Date; end: Date } | null {
      const start = new Date(from);
      const end = new Date(to);
      return Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || end <= start ? null : { start, end };
    },
  };
}

export type Period = ReturnType<typeof usePeriod>;

export function PeriodFields({ period, fromLabel, toLabel }: { period: Period; fromLabel: string; toLabel: string }) {
  return (
    <>
      <TextField
        label={fromLabel}
        type="datetime-local"
        value={period.from}
        onChange={(event) => period.setFrom(event.target.value)}
        fullWidth
        margin="normal"
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        label={toLabel}
        type="datetime-local"
        value={period.to}
        onChange={(event) => period.setTo(event.target.value)}
        fullWidth
        margin="normal"
        slotProps={{ inputLabel: { shrink: true } }}
      />
    </>
  );
}
