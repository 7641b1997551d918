/**
 * The line a regroup's tile carries under its name (issue 70): that the channel is a temporary regroup, and when
 * it ends by itself. Read from the open regroups (the panel's query: one request for both); nothing for a
 * channel that is no regroup's.
 */
import TimerIcon from '@mui/icons-material/TimerOutlined';
import Typography from '@mui/material/Typography';
import { GetRegroups } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../../api/queries.ts';
import { formatDate } from '../../../i18n/dates.ts';

export function RegroupTileLine({ channelId }: { channelId: number }) {
  const { t, i18n } = useTranslation('dispatch');
  const regroups = useApiQuery(GetRegroups, {}, { refetchInterval: 30_000 });
  const regroup = regroups.data?.res.find((open) => open.channelId === channelId);
  if (!regroup) return null;
  return (
    <Typography
      variant="body2"
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, color: 'warning.dark', fontWeight: 600 }}
    >
      <TimerIcon fontSize="small" aria-hidden />
      {t('regroup.tileLine', { until: formatDate(regroup.expiresAt, 'HH:mm', i18n.resolvedLanguage) })}
    </Typography>
  );
}
