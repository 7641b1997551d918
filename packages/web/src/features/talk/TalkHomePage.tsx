/**
 * /talk, where a member lands after signing in: its channels (getMyChannels), each with how many of its
 * members are connected now and who is talking there right now (watch_channels, live), one tap from the
 * channel page; which channels are heard while the app is open (scan). An administrator may open it too and
 * finds a way back to the console.
 */
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import DashboardIcon from '@mui/icons-material/DashboardOutlined';
import RecordVoiceOverIcon from '@mui/icons-material/RecordVoiceOver';
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
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { callKey, useApiQuery } from '../../api/queries.ts';
import { useServerEvent, useServerEvents, useWatchChannels } from '../../api/serverEvents.ts';
import { homeOf, useSession, usesConsole } from '../../api/session.ts';
import { usePageTitle } from '../../components/PageHeader.tsx';
import { visuallyHidden } from '../../components/visuallyHidden.ts';
import { lastSeenMessage } from './chatSeen.ts';
import { LoneWorkSwitch } from './LoneWork.tsx';
import { ManDownSwitch } from './manDown/ManDown.tsx';
import { AvailabilitySwitch, MissedCount, useMissed } from './missed.tsx';
import { SecureContextHint } from './PlatformHints.tsx';
import { PushSwitch } from './PushSwitch.tsx';
import { ScanHeard, ScanSwitch } from './scan.tsx';
import { useTalkShell } from './TalkLayout.tsx';
import { TalkTopBar } from './TalkTopBar.tsx';
import { useOnline } from './useOnline.ts';

export default function TalkHomePage() {
  const { t } = useTranslation('talk');
  usePageTitle(t('home.title'));
  const { accountMenu } = useTalkShell();
  const session = useSession();
  // Those who use the console (administrators, dispatchers) find their way back to it.
  const consoleHome = session?.user && usesConsole(session.user.role) ? homeOf(session) : null;
  const channels = useApiQuery(GetMyChannels, {}, { refetchInterval: 30_000 });
  const online = useOnline();
  useLiveChannelList();
  const talking = useTalkingNow(channels.data?.res ?? []);
  const missed = useMissed();

  return (
    <>
      <TalkTopBar title={t('home.title')} end={accountMenu} />
      <Box
        component="main"
        sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2, maxWidth: 720, width: '100%', mx: 'auto' }}
      >
        <SecureContextHint />
        <ScanHeard />
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
                    primary={[
                      channel.name,
                      ...(channel.temporary ? [t('selected.temporary')] : []),
                      // Issue 59: here because the member is in its zone.
                      ...(channel.areaGeofenceId !== null ? [t('home.area')] : []),
                    ].join(' · ')}
                    secondary={
                      <>
                        {`${t('home.members', { count: channel.users.length })} · ${t('home.connected', { count: channel.connected })}`}
                        {talking.get(channel.id)?.length ? (
                          <Box
                            component="span"
                            data-testid="channel-talking"
                            sx={{
                              display: 'flex',
                              alignItems: 'center',
                              gap: 0.5,
                              color: 'error.main',
                              fontWeight: 700,
                            }}
                          >
                            <RecordVoiceOverIcon fontSize="inherit" aria-hidden />
                            {t('home.talking', { names: talking.get(channel.id)?.join(', ') })}
                          </Box>
                        ) : null}
                        <MissedCount count={missed.counts.get(channel.id) ?? 0} />
                      </>
                    }
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
        {channels.data?.res.length ? (
          <Box component="section" aria-labelledby="scan-title" sx={{ display: 'flex', flexDirection: 'column' }}>
            <Typography id="scan-title" component="h2" variant="subtitle1" sx={{ fontWeight: 700 }}>
              {t('scan.title')}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 0.5 }}>
              {t('scan.help')}
            </Typography>
            {channels.data.res.map((channel) => (
              <ScanSwitch key={channel.id} channel={channel} />
            ))}
          </Box>
        ) : null}
        <AvailabilitySwitch />
        <PushSwitch />
        <LoneWorkSwitch />
        <ManDownSwitch />
        {consoleHome ? (
          <Button
            component={RouterLink}
            to={consoleHome}
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

/**
 * Who is talking in each channel now: the list's answer (getMyChannels `talking`), then live from the
 * channels' lobby (onMicStateChanged, keyed by the room's rtcSession).
 */
function useTalkingNow(
  channels: Array<{ id: number; rtcSession: string; talking?: Array<{ userId: number; name: string }> }>,
) {
  useWatchChannels(channels.map((channel) => channel.id));
  const [live, setLive] = useState<Map<string, Map<number, string | null>>>(() => new Map());
  useServerEvent('onMicStateChanged', ({ userId, name, micState, room }) => {
    setLive((known) => {
      const next = new Map(known);
      const inRoom = new Map(next.get(room) ?? []);
      inRoom.set(userId, micState ? name : null);
      next.set(room, inRoom);
      return next;
    });
  });
  const byChannel = new Map<number, string[]>();
  for (const channel of channels) {
    const names = new Map((channel.talking ?? []).map((talker) => [talker.userId, talker.name] as const));
    for (const [userId, name] of live.get(channel.rtcSession) ?? []) {
      if (name === null) names.delete(userId);
      else names.set(userId, name);
    }
    byChannel.set(channel.id, [...names.values()]);
  }
  return byChannel;
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
