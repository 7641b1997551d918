/**
 * /dashboard (spec section 2): the totals and their ten-day trends, Add User and Add Channel, the busiest
 * channels, the last activities and the two tables in their dashboard variants. The figures come from one
 * statistics call (getStatistics) and follow the server's pushes.
 */

import PeopleAltOutlinedIcon from '@mui/icons-material/PeopleAltOutlined';
import PersonAddAlt1OutlinedIcon from '@mui/icons-material/PersonAddAlt1Outlined';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import PodcastsOutlinedIcon from '@mui/icons-material/PodcastsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import { useTheme } from '@mui/material/styles';
import { GetStatistics } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callKey, useApiQuery } from '../../api/queries.ts';
import { useServerEvents } from '../../api/serverEvents.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ChannelDialog, ChannelsTable } from '../../features/channels/index.ts';
import { AddUserDialog, UsersTable } from '../../features/users/index.ts';
import { LastActivities } from './LastActivities.tsx';
import { StatTile } from './StatTile.tsx';
import { TopChannels } from './TopChannels.tsx';

/** Pushes that change a total, a trend, a member count, a connected count or a last activity. */
const STATISTICS_EVENTS = [
  'onUsersChanged',
  'onUserDeleted',
  'onChannelsChanged',
  'onChannelDeleted',
  'onUserStatusesChanged',
  'onUserStatusChanged',
  'userConnected',
  'onActivity',
] as const;

export default function DashboardPage() {
  const { t } = useTranslation(['dashboard', 'common']);
  const theme = useTheme();
  const queryClient = useQueryClient();
  const statistics = useApiQuery(GetStatistics, {});
  const stats = statistics.data?.res;
  const [addingUser, setAddingUser] = useState(false);
  const [addingChannel, setAddingChannel] = useState(false);

  useServerEvents([...STATISTICS_EVENTS], () => {
    void queryClient.invalidateQueries({ queryKey: callKey(GetStatistics) });
  });

  return (
    <>
      <PageHeader title={t('dashboard:title')} subtitle={t('dashboard:subtitle')} />

      {statistics.error && !stats ? (
        <Alert
          severity="error"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" size="small" onClick={() => void statistics.refetch()}>
              {t('common:actions.retry')}
            </Button>
          }
        >
          {t('dashboard:loadFailed')}
        </Alert>
      ) : null}

      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '1fr 1fr minmax(200px, 0.7fr)' },
          mb: 2,
        }}
      >
        <StatTile
          title={t('dashboard:tiles.users')}
          what={t('dashboard:trend.users')}
          icon={<PeopleAltOutlinedIcon />}
          color={theme.palette.primary.main}
          total={stats?.totalUsers}
          trend={stats?.usersTrend}
          change={stats?.usersChange}
        />
        <StatTile
          title={t('dashboard:tiles.channels')}
          what={t('dashboard:trend.channels')}
          icon={<PodcastsOutlinedIcon />}
          color={theme.palette.info.main}
          total={stats?.totalChannels}
          trend={stats?.channelsTrend}
          change={stats?.channelsChange}
        />
        <Card
          component="section"
          aria-label={t('dashboard:actions.label')}
          sx={{
            p: 2,
            display: 'flex',
            flexDirection: { xs: 'column', sm: 'row', lg: 'column' },
            gap: 1.5,
            justifyContent: 'center',
            gridColumn: { sm: '1 / -1', lg: 'auto' },
          }}
        >
          <Button
            variant="contained"
            size="large"
            startIcon={<PersonAddAlt1OutlinedIcon />}
            onClick={() => setAddingUser(true)}
            sx={{ flex: { sm: 1, lg: 'none' } }}
          >
            {t('dashboard:actions.addUser')}
          </Button>
          <Button
            variant="outlined"
            size="large"
            startIcon={<PlaylistAddIcon />}
            onClick={() => setAddingChannel(true)}
            sx={{ flex: { sm: 1, lg: 'none' } }}
          >
            {t('dashboard:actions.addChannel')}
          </Button>
        </Card>
      </Box>

      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '5fr 7fr' }, mb: 2 }}>
        <TopChannels channels={stats?.topChannels} />
        <LastActivities />
      </Box>

      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', xl: '1fr 1fr' } }}>
        <Box sx={{ minWidth: 0 }}>
          <UsersTable variant="dashboard" title={t('dashboard:tables.users')} />
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <ChannelsTable variant="dashboard" title={t('dashboard:tables.channels')} />
        </Box>
      </Box>

      <AddUserDialog open={addingUser} onClose={() => setAddingUser(false)} />
      <ChannelDialog open={addingChannel} onClose={() => setAddingChannel(false)} />
    </>
  );
}
