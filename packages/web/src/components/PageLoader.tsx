/** Shown while a lazily loaded page or its texts arrive (no hook: it may render while texts are loading). */
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import i18n from 'i18next';

export function PageLoader({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <Box
      sx={{
        display: 'grid',
        placeItems: 'center',
        minHeight: fullScreen ? '100dvh' : 240,
        // A fast load shows nothing rather than a flashing spinner.
        animation: 'talkgroup-loader-in 0.2s ease-in 0.3s both',
        '@keyframes talkgroup-loader-in': { from: { opacity: 0 }, to: { opacity: 1 } },
      }}
    >
      <CircularProgress aria-label={i18n.t('common:loading')} />
    </Box>
  );
}
