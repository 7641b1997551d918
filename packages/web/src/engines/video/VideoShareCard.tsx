/**
 * The member's live video on /talk (issue 61 item 1): "Video" starts it, the page shows its own preview with
 * "Switch camera" and "Stop video", the server's sentence when it refuses (a listen-only member), the banner of a
 * start without consent, and the recording's upload with its progress and "Retry".
 */
import CameraswitchIcon from '@mui/icons-material/Cameraswitch';
import VideocamIcon from '@mui/icons-material/Videocam';
import VideocamOffIcon from '@mui/icons-material/VideocamOff';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import type { VideoShare } from './useVideoShare.ts';

/** A <video> showing a MediaStream (muted: live video carries no sound here). */
export function StreamVideo({
  stream,
  label,
  mirrored = false,
  videoRef,
  maxHeight = 240,
}: {
  stream: MediaStream | null;
  label: string;
  mirrored?: boolean;
  videoRef?: React.RefObject<HTMLVideoElement | null>;
  maxHeight?: number | string;
}) {
  const own = useRef<HTMLVideoElement>(null);
  const ref = videoRef ?? own;
  useEffect(() => {
    const element = ref.current;
    if (!element || element.srcObject === stream) return;
    element.srcObject = stream;
    if (stream) void element.play().catch(() => undefined);
  }, [ref, stream]);
  return (
    <Box
      component="video"
      ref={ref}
      aria-label={label}
      muted
      autoPlay
      playsInline
      sx={{
        width: '100%',
        maxHeight,
        bgcolor: 'common.black',
        borderRadius: 1,
        objectFit: 'contain',
        transform: mirrored ? 'scaleX(-1)' : undefined,
      }}
    />
  );
}

export function VideoShareCard({ share }: { share: VideoShare }) {
  const { t } = useTranslation('video');
  const { phase, problem, upload } = share;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      {phase === 'live' ? (
        <>
          {/* Stop first: a phone's screen shows it without scrolling. */}
          <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
            <Button
              variant="contained"
              color="error"
              startIcon={<VideocamOffIcon />}
              onClick={() => void share.stop()}
              sx={{ minHeight: 48, flex: 1 }}
            >
              {t('share.stop')}
            </Button>
            <Button
              variant="outlined"
              startIcon={<CameraswitchIcon />}
              onClick={() => void share.switchCamera()}
              sx={{ minHeight: 48 }}
            >
              {t('share.switch')}
            </Button>
          </Box>
          <StreamVideo stream={share.preview} label={t('share.preview')} maxHeight={200} />
          <Alert severity="info" role="status" icon={<VideocamIcon />}>
            {t('share.live')}
          </Alert>
        </>
      ) : (
        <Button
          variant="outlined"
          startIcon={<VideocamIcon />}
          disabled={!share.ready || phase === 'starting'}
          onClick={() => void share.start()}
          sx={{ minHeight: 48 }}
        >
          {phase === 'starting' ? t('share.starting') : t('share.start')}
        </Button>
      )}
      {problem ? (
        <Alert severity="error">{problem.kind === 'camera' ? t('share.cameraFailed') : problem.sentence}</Alert>
      ) : null}
      {upload?.state === 'uploading' ? (
        <Box role="status" aria-live="polite">
          {t('upload.progress', { percent: Math.round(upload.progress * 100) })}
          <LinearProgress variant="determinate" value={upload.progress * 100} sx={{ mt: 0.5 }} />
        </Box>
      ) : null}
      {upload?.state === 'done' ? (
        <Alert severity="success" role="status">
          {t('upload.done')}
        </Alert>
      ) : null}
      {upload?.state === 'failed' ? (
        <Alert
          severity="warning"
          action={
            <Button color="inherit" size="small" onClick={() => void share.retryUpload()}>
              {t('upload.retry')}
            </Button>
          }
        >
          {t('upload.failed')} {errorMessage(upload.error, '')}
        </Alert>
      ) : null}
    </Box>
  );
}

/** "Live video: you are being watched", while a stream started without the member's consent lasts. */
export function WatchedBanner({ share }: { share: VideoShare }) {
  const { t } = useTranslation('video');
  if (share.phase !== 'live' || !share.withoutConsent) return null;
  return (
    <Alert severity="warning" role="status" square icon={<VideocamIcon />} sx={{ borderRadius: 0 }}>
      {t('share.watched')}
    </Alert>
  );
}
