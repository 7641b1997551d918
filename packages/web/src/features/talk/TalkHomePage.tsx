/**
 * /talk, where a member lands after signing in: its channels (getMyChannels), each with how many of its
 * members are connected now, one tap from the channel page. An administrator may open it too and finds a
 * way back to the console.
 */
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import DashboardIcon from '@mui/icons-material/DashboardOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { GetChannelMessageListForAdmin, GetMyChannels } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { callKey, useApiQuery } from '../../api/queries.ts';
import { useServerEvents } from '../../api/serverEvents.ts';
import { useSession } from '../../api/session.ts';
import { usePageTitle } from '../../components/PageHeader.tsx';
import { lastSeenMessage } from './chatSeen.ts';
import { ForegroundHint, SecureContextHint } from './PlatformHints.tsx';
import { useTalkShell } from './TalkLayout.tsx';
import { TalkTopBar } from './TalkTopBar.tsx';
import { useOnline } from './useOnline.ts';

export default function TalkHomePage() {
  const { t } = useTranslation('talk');
  usePageTitle(t('home.title'));
  const { accountMenu } = useTalkShell();
  const admin = useSession()?.user?.role !== 'member';
  const channels = useApiQuery(GetMyChannels, {}, { refetchInterval: 30_000 });
  const online = useOnline();
  useLiveChannelList();

  return (
    <>
      <TalkTopBar title={t('home.title')} end={accountMenu} />
      <Box
        component="main"
        sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2, maxWidth: 720, width: '100%', mx: 'auto' }}
      >
        <SecureContextHint />
        <Typography component="h2" variant="h6">
          {t('home.channels')}
        </Typography>
        {!channels.data && !online ? (
          <Alert severity="info">{t('home.waitingForNetwork')}</Alert>
        ) : channels.isLoading ? (
          <Box aria-busy="true" aria-label={t('home.loading')}>
            {[0, 1, 2].map((row) => (
              <Skeleton key={row} variant="rounded" height={64} sx={{ mb: 1 }} />
            ))}
          </Box>
        ) : channels.error ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" onClick={() => void channels.refetch()} sx={{ minHeight: 44 }}>
                {t('home.retry')}
              </Button>
            }
          >
            {errorMessage(channels.error, t('home.loadFailed'))}
          </Alert>
        ) : channels.data?.res.length ? (
          <List aria-label={t('home.channels')} sx={{ display: 'grid', gap: 1, p: 0 }}>
            {channels.data.res.map((channel) => (
              <ListItem key={channel.id} disablePadding>
                <ListItemButton
                  component={RouterLink}
                  to={`/talk/${channel.id}`}
                  sx={{
                    minHeight: 64,
                    borderRadius: 2,
                    bgcolor: 'background.paper',
                    border: '1px solid',
                    borderColor: 'divider',
                  }}
                >
                  <ListItemText
                    primary={channel.name}
                    secondary={`${t('home.members', { count: channel.users.length })} · ${t('home.connected', { count: channel.connected })}`}
                    slotProps={{
                      primary: { sx: { fontWeight: 700, fontSize: '1.1rem' } },
                      secondary: { sx: { color: 'text.secondary' } },
                    }}
                  />
                  <UnreadCount channelId={channel.id} />
                  <Box
                    aria-hidden
                    sx={{
                      width: 12,
                      height: 12,
                      borderRadius: '50%',
                      mr: 1,
                      bgcolor: channel.connected > 0 ? '#1e7d3a' : 'grey.400',
                    }}
                  />
                  <ChevronRightIcon aria-hidden />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        ) : (
          <Alert severity="info">{t('home.empty')}</Alert>
        )}
        <ForegroundHint />
        {admin ? (
          <Button
            component={RouterLink}
            to="/dashboard"
            variant="outlined"
            startIcon={<DashboardIcon />}
            sx={{ alignSelf: 'flex-start', minHeight: 44 }}
          >
            {t('home.console')}
          </Button>
        ) : null}
      </Box>
    </>
  );
}

/** The list follows who connects and leaves, and channel changes, without waiting for the next poll. */
function useLiveChannelList() {
  const queryClient = useQueryClient();
  useServerEvents(
    ['onUserStatusesChanged', 'onUserStatusChanged', 'userConnected', 'onChannelsChanged', 'onChannelDeleted'],
    () => {
      void queryClient.invalidateQueries({ queryKey: callKey(GetMyChannels) });
    },
  );
}

/** How many chat messages came since the member last read this channel's chat here ("20+" beyond a page). */
function UnreadCount({ channelId }: { channelId: number }) {
  const { t } = useTranslation('talk');
  const after = lastSeenMessage(channelId);
  const unread = useApiQuery(GetChannelMessageListForAdmin, { channelId, afterId: after }, { refetchInterval: 30_000 });
  const count = unread.data?.discussion.length ?? 0;
  if (!count) return null;
  const shown = unread.data?.hasMore ? `${count}+` : String(count);
  return (
    <Box
      component="span"
      sx={{
        mr: 1,
        minWidth: 28,
        height: 28,
        px: 1,
        borderRadius: 14,
        display: 'inline-grid',
        placeItems: 'center',
        bgcolor: 'secondary.main',
        color: 'secondary.contrastText',
        fontWeight: 700,
        fontSize: '0.85rem',
      }}
    >
      <span aria-hidden>{shown}</span>
      <span style={visuallyHidden}>{t('home.unread', { count, shown })}</span>
    </Box>
  );
}

/** Read by screen readers, not shown (the bubble shows the count). */
const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
