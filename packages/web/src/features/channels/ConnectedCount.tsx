/** 'connected/total' for a channel, with a green dot while someone is connected. */
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';

export function ConnectedCount({ connected, total }: { connected: number; total: number }) {
  const { t } = useTranslation('channels');
  const live = connected > 0;
  return (
    <Box
      component="span"
      role="img"
      aria-label={t('connected', { connected, total })}
      title={t('connected', { connected, total })}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.75,
        px: 1,
        py: 0.25,
        borderRadius: 10,
        fontVariantNumeric: 'tabular-nums',
        fontWeight: 600,
        fontSize: '0.85rem',
        bgcolor: live ? 'rgba(30, 125, 58, 0.1)' : 'action.hover',
        color: live ? 'success.main' : 'text.secondary',
      }}
    >
      <Box
        component="span"
        aria-hidden
        sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: live ? 'success.main' : 'text.disabled' }}
      />
      <span aria-hidden>
        {connected}/{total}
      </span>
    </Box>
  );
}
