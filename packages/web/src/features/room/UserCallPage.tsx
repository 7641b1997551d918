/**
 * The user call view, /userCallView/:data (spec sections 2 and 4): opened by a member's device with a link
 * whose last segment is a URL-encoded JSON { channelId, userId, token }. Audio only; the microphone starts
 * muted; window events switch it (postMessage or a 'talkgroup:mic' event from the app that embeds the page,
 * see callLink.ts), as do the button and the space bar; every change is reported to the server. Once the
 * socket id is known, the user is connected to the channel (connectAdminToChannel/).
 */
import GraphicEqIcon from '@mui/icons-material/GraphicEq';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { ConnectAdminToChannel, displayNameOf, IsValidToken, UpdateUserMicState } from '@talkgroup/protocol';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { api } from '../../api/client.ts';
import { useClientConfig } from '../../api/useClientConfig.ts';
import { ConnectionBanner } from '../../components/ConnectionBanner.tsx';
import { usePageTitle } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { RoomNotice } from '../../engines/room/RoomFrame.tsx';
import { useRoomChannel } from '../../engines/room/useRoomChannel.ts';
import { useRoomSocket } from '../../engines/room/useRoomSocket.ts';
import {
  MediaProblemAlert,
  PushToTalkButton,
  useVoiceProcessing,
  useVoiceRoom,
  VoiceLinkStatus,
} from '../../engines/voice/index.ts';
import { micRequestOf, parseCallLink } from './callLink.ts';
import { ParticipantsGrid } from './participants/ParticipantsGrid.tsx';

const MIC_EVENT = 'talkgroup:mic';

export default function UserCallPage() {
  const { t } = useTranslation('room');
  const { data } = useParams();
  const link = useMemo(() => parseCallLink(data), [data]);
  usePageTitle(t('userCall.title'));

  if (!link) {
    return (
      <RoomNotice title={t('userCall.title')} severity="error" sx={{ p: { xs: 2, sm: 4 }, maxWidth: 640, mx: 'auto' }}>
        {t('userCall.badLink')}
      </RoomNotice>
    );
  }
  return <UserCall channelId={link.channelId} userId={link.userId} token={link.token} />;
}

function UserCall({ channelId, userId, token }: { channelId: number; userId: number; token: string }) {
  const { t } = useTranslation('room');
  const account = useQuery({
    queryKey: [IsValidToken.path, 'link'],
    queryFn: ({ signal }) => api(IsValidToken, { token }, { signal, token }),
    retry: false,
  });
  const { channel, isLoading, notFound, error } = useRoomChannel(undefined, { all: false, token, channelId });
  const config = useClientConfig(token);
  const { socket, connected } = useRoomSocket(token);
  const [voiceProcessing] = useVoiceProcessing();
  const user = account.data?.user;
  const name = user ? displayNameOf(user) : '';
  const channelName = channel?.name;

  const reportMicState = useCallback(
    (on: boolean) =>
      channelName ? api(UpdateUserMicState, { userId, micState: on, channelName }, { token }) : Promise.resolve(),
    [userId, channelName, token],
  );
  const { engine, state } = useVoiceRoom({
    socket,
    enabled: Boolean(channel && config.data && account.data),
    room: channel?.rtcSession ?? '',
    name,
    iceServers: config.data?.iceServers ?? [],
    iceTransportPolicy: config.data?.iceTransportPolicy,
    voiceProcessing,
    reportMicState,
  });

  // Spec section 4: when the socket id is known, the user is connected to the channel.
  const socketId = state.joined ? state.selfId : null;
  useEffect(() => {
    if (!socketId || !channel) return;
    api(ConnectAdminToChannel, { userId, channelId: channel.id, socketId }, { token }).catch(() => {
      // join_room already placed the socket in the channel; this report is a courtesy to older servers.
    });
  }, [socketId, channel, userId, token]);

  // The app that embeds this page switches the microphone with window events.
  useEffect(() => {
    if (!engine) return;
    const onMessage = (event: MessageEvent) => {
      const on = micRequestOf(event.data);
      if (on !== null) engine.setMicEnabled(on);
    };
    const onMicEvent = (event: Event) => {
      const on = micRequestOf((event as CustomEvent).detail);
      if (on !== null) engine.setMicEnabled(on);
    };
    window.addEventListener('message', onMessage);
    window.addEventListener(MIC_EVENT, onMicEvent);
    return () => {
      window.removeEventListener('message', onMessage);
      window.removeEventListener(MIC_EVENT, onMicEvent);
    };
  }, [engine]);

  if (isLoading || account.isLoading) return <PageLoader fullScreen />;
  const problem = account.error ?? error;

  return (
    <Box
      component="main"
      sx={{
        minHeight: '100dvh',
        bgcolor: '#0f2537',
        color: '#e3edf5',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        gap: 3,
        px: 2,
        py: 4,
      }}
    >
      <ConnectionBanner reconnecting={state.reconnecting} />
      <Box sx={{ textAlign: 'center' }}>
        <Typography variant="overline" sx={{ color: '#9db4c6' }}>
          {t('userCall.title')}
        </Typography>
        <Typography component="h1" variant="h1" sx={{ color: '#fff' }}>
          {channel?.name ?? ''}
        </Typography>
        <Chip
          size="small"
          sx={{ mt: 1, color: '#fff', bgcolor: connected && state.joined ? '#1e7d3a' : 'rgba(255,255,255,0.14)' }}
          label={connected && state.joined ? t('groupCall.connected') : t('groupCall.connecting')}
        />
      </Box>
      {problem || notFound ? (
        <Alert severity="error" sx={{ maxWidth: 520 }}>
          {problem ? t('userCall.badLink') : t('groupCall.notFound')}
        </Alert>
      ) : null}
      <PushToTalkButton
        micOn={state.micOn}
        heldBy={state.floorHolder}
        disabled={!state.micReady || !state.joined}
        onChange={(on) => engine?.setMicEnabled(on)}
        compact
      />
      <Typography sx={{ fontWeight: 700, color: state.micOn ? '#f2a541' : '#9db4c6' }} aria-live="polite">
        {state.micOn ? t('userCall.micOn') : t('userCall.micOff')}
      </Typography>
      <Box sx={{ maxWidth: 520, width: '100%' }}>
        <MediaProblemAlert problem={state.mediaProblem} />
        <VoiceLinkStatus transport={state.transport} problem={state.linkProblem} showTransport={false} />
      </Box>
      <Box sx={{ width: '100%', maxWidth: 720, bgcolor: '#f1f4f7', color: 'text.primary', borderRadius: 3, p: 2 }}>
        <Typography component="h2" variant="h5" sx={{ mb: 1.5, display: 'flex', alignItems: 'center', gap: 1 }}>
          <GraphicEqIcon aria-hidden /> {t('participants.title')}
        </Typography>
        <ParticipantsGrid peers={state.peers} dense />
      </Box>
    </Box>
  );
}
