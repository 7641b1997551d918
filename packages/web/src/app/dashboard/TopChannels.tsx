/**
 * Top Active Channels (spec section 2): the five channels with the most members, highest first, each with
 * connected/total and the date of its last activity, or 'Pas d'activité encore.'.
 */
import GroupsOutlinedIcon from '@mui/icons-material/GroupsOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import LinearProgress from '@mui/material/LinearProgress';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import type { Statistics } from '@talkgroup/protocol';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../i18n/dates.ts';

export function TopChannels({ channels }: { channels: Statistics['topChannels'] | undefined }) {
  const { t, i18n } = useTranslation('dashboard');
  const titleId = useId();
  const language = i18n.resolvedLanguage;
  return (
    <Card component="section" aria-labelledby={titleId} sx={{ height: '100%' }}>
      <CardHeader
        title={t('topChannels.title')}
        slotProps={{ title: { id: titleId, variant: 'h3', component: 'h2' } }}
        sx={{ pb: 0 }}
      />
      <CardContent>
        {channels === undefined ? (
          <Skeleton variant="rounded" height={220} />
        ) : channels.length === 0 ? (
          <Typography sx={{ color: 'text.secondary', py: 2 }}>{t('topChannels.empty')}</Typography>
        ) : (
          <Box component="ol" aria-labelledby={titleId} sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {channels.map((channel, index) => (
              <Box
                component="li"
                key={channel.id}
                sx={{
                  display: 'grid',
                  gridTemplateColumns: '28px minmax(0, 1fr) auto',
                  alignItems: 'center',
                  columnGap: 1.5,
                  py: 1.25,
                  borderTop: index === 0 ? 0 : 1,
                  borderColor: 'divider',
                }}
              >
                <Typography aria-hidden sx={{ fontWeight: 700, color: 'text.secondary', textAlign: 'center' }}>
                  {index + 1}
                </Typography>
                <Box sx={{ minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 600 }} noWrap title={channel.name}>
                    {channel.name}
                  </Typography>
                  <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
                    {channel.lastActivityAt
                      ? t('topChannels.lastActivity', { date: formatDate(channel.lastActivityAt, undefined, language) })
                      : t('topChannels.noActivity')}
                  </Typography>
                </Box>
                <Box sx={{ textAlign: 'right', minWidth: 72 }}>
                  <Box
                    sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, fontWeight: 600 }}
                    title={t('topChannels.membersLabel', { connected: channel.connected, total: channel.total })}
                  >
                    <GroupsOutlinedIcon
                      aria-hidden
                      fontSize="small"
                      sx={{ color: channel.connected > 0 ? 'success.main' : 'text.disabled' }}
                    />
                    <span>
                      {channel.connected}/{channel.total}
                    </span>
                  </Box>
                  <LinearProgress
                    aria-hidden
                    variant="determinate"
                    color="success"
                    value={channel.total === 0 ? 0 : (channel.connected / channel.total) * 100}
                    sx={{ mt: 0.5, height: 4, borderRadius: 2, bgcolor: 'action.hover' }}
                  />
                </Box>
              </Box>
            ))}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
