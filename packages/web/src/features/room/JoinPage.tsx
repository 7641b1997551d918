/**
 * The video room, /join/:roomId (spec sections 2, 4 and 9): video at an ideal 240x240 and audio; the
 * remote peers in columns of four; the local preview small at the bottom right. The microphone works as
 * everywhere else (muted at start, press to talk); the camera can be switched off and on.
 */
import VideocamIcon from '@mui/icons-material/Videocam';
import VideocamOffIcon from '@mui/icons-material/VideocamOff';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { usePageTitle } from '../../components/PageHeader.tsx';
import { RoomFrame, SignedInRoom } from '../../engines/room/RoomFrame.tsx';
import { useRoom } from '../../engines/room/useRoom.ts';
import { MediaProblemAlert, PushToTalkButton } from '../../engines/voice/index.ts';
import { ParticipantsGrid } from './participants/ParticipantsGrid.tsx';

export default function JoinPage() {
  const { t } = useTranslation('room');
  usePageTitle(t('join.title'));
  return (
    <SignedInRoom title={t('join.title')}>
      <VideoRoom />
    </SignedInRoom>
  );
}

function LocalPreview({ stream, label }: { stream: MediaStream | null; label: string }) {
  const ref = useRef<HTMLVideoElement | null>(null);
  useEffect(() => {
    if (ref.current && ref.current.srcObject !== stream) ref.current.srcObject = stream;
  }, [stream]);
  if (!stream || stream.getVideoTracks().length === 0) return null;
  return (
    <Box
      component="video"
      ref={ref}
      autoPlay
      playsInline
      muted
      aria-label={label}
      data-testid="local-preview"
      sx={{
        position: 'fixed',
        right: 16,
        // Above the control bar (push-to-talk 76 px and its padding): the preview never covers a control.
        bottom: 116,
        width: { xs: 112, sm: 160 },
        aspectRatio: '1 / 1',
        objectFit: 'cover',
        borderRadius: 2,
        border: '2px solid rgba(255,255,255,0.7)',
        boxShadow: '0 6px 18px rgba(0,0,0,0.45)',
        transform: 'scaleX(-1)',
        bgcolor: '#000',
        zIndex: 10,
      }}
    />
  );
}

function VideoRoom() {
  const { t } = useTranslation('room');
  const { roomId } = useParams();
  const room = useRoom(roomId, { video: true });
  const { voice } = room;

  return (
    <RoomFrame room={room} basePath="/join/">
      {(channel) => {
        const { state } = voice;
        const live = room.connected && state.joined;
        const hasCamera = (state.localStream?.getVideoTracks().length ?? 0) > 0;

        return (
          <Box
            component="main"
            // Room below the last tiles for the control bar and, on a phone, the preview above it.
            sx={{ minHeight: '100dvh', bgcolor: '#0f2537', color: '#e3edf5', p: 2, pb: { xs: 32, sm: 14 } }}
          >
            <Box component="header" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2, flexWrap: 'wrap' }}>
              <Box sx={{ flex: 1, minWidth: 0 }}>
                <Typography variant="overline" sx={{ color: '#9db4c6' }}>
                  {t('join.title')}
                </Typography>
                <Typography component="h1" variant="h1" sx={{ color: '#fff' }}>
                  {channel.name}
                </Typography>
              </Box>
              <Chip
                size="small"
                label={live ? t('groupCall.connected') : t('groupCall.connecting')}
                sx={{ color: '#fff', bgcolor: live ? '#1e7d3a' : 'rgba(255,255,255,0.16)' }}
              />
            </Box>
            <Box sx={{ maxWidth: 560, mb: 2 }}>
              <MediaProblemAlert problem={state.mediaProblem} video />
            </Box>
            <Box sx={{ bgcolor: '#f1f4f7', color: 'text.primary', borderRadius: 3, p: 1.5 }}>
              <ParticipantsGrid peers={state.peers} video columnsOfFour dense />
            </Box>
            <Box
              sx={{
                position: 'fixed',
                left: 0,
                right: 0,
                bottom: 0,
                py: 1.5,
                display: 'flex',
                justifyContent: 'center',
                alignItems: 'center',
                gap: 2,
                bgcolor: 'rgba(15,37,55,0.92)',
              }}
            >
              <PushToTalkButton
                micOn={state.micOn}
                heldBy={state.floorHolder}
                disabled={!state.micReady || !state.joined}
                onChange={(on) => voice.engine?.setMicEnabled(on)}
                size={76}
                compact
              />
              <Tooltip title={state.cameraOn ? t('join.cameraOff') : t('join.cameraOn')}>
                <span>
                  <IconButton
                    onClick={() => voice.engine?.setCameraEnabled(!state.cameraOn)}
                    disabled={!hasCamera}
                    aria-label={t('join.camera')}
                    aria-pressed={state.cameraOn}
                    sx={{ width: 56, height: 56, color: '#fff', bgcolor: 'rgba(255,255,255,0.12)' }}
                  >
                    {state.cameraOn ? <VideocamIcon /> : <VideocamOffIcon />}
                  </IconButton>
                </span>
              </Tooltip>
            </Box>
            <LocalPreview stream={state.localStream} label={t('join.you')} />
          </Box>
        );
      }}
    </RoomFrame>
  );
}
