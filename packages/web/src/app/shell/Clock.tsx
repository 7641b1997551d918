/** The sidebar's live clock (spec section 2): ticks every second, in the reader's language. */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../i18n/dates.ts';

const TICK_MS = 1000;

export function Clock() {
  const { t, i18n } = useTranslation();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  const language = i18n.resolvedLanguage;
  return (
    <Box role="timer" aria-label={t('clock.label')} sx={{ px: 2.5, py: 2 }}>
      <Typography
        component="time"
        dateTime={now.toISOString()}
        data-testid="clock-time"
        sx={{
          display: 'block',
          fontSize: '2rem',
          fontWeight: 700,
          letterSpacing: '0.02em',
          fontVariantNumeric: 'tabular-nums',
          color: '#ffffff',
          lineHeight: 1.1,
        }}
      >
        {formatDate(now, 'HH:mm:ss', language)}
      </Typography>
      <Typography
        sx={{ color: '#9db4c6', fontSize: '0.9rem', mt: 0.5, '&::first-letter': { textTransform: 'uppercase' } }}
      >
        {formatDate(now, 'PPPP', language)}
      </Typography>
    </Box>
  );
}
