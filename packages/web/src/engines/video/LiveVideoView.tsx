/**
 * One live stream watched (issue 61 items 3 and 4): `video_watch`, the sharer's offer answered, its frames in a
 * muted <video> ("Video of {name}"); the server's sentence when it refuses (the fifth viewer, one outside the
 * audience). "Full screen" shows the same stream large (through the media server, in its high layer: a tile takes
 * the low one); "Capture" sends the current frame to the channel's chat
 * as an image whose text gives the time and the member's last known position.
 */
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { LiveVideo } from '@talkgroup/protocol';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSharedSocket } from '../../api/serverEvents.ts';
import { getToken } from '../../api/session.ts';
import { useClientConfig } from '../../api/useClientConfig.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { formatDate } from '../../i18n/dates.ts';
import { uploadImage } from '../room/index.ts';
import { StreamVideo } from './VideoShareCard.tsx';
import { watchVideo } from './videoPeer.ts';

export interface LastPosition {
  lat: number;
  lng: number;
}

/**
 * The stream's frames as this page receives them; the refusal's sentence when the server says no, or when the
 * video never reached the media server (`video_unavailable`).
 */
function useWatchedStream(streamId: string) {
  const { socket } = useSharedSocket();
  const config = useClientConfig();
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  /** "Try again" after a refusal (a place freed among the viewers). */
  const [attempt, setAttempt] = useState(0);
  const ice = useRef(config.data);
  ice.current = config.data;
  const configured = Boolean(config.data);
  // biome-ignore lint/correctness/useExhaustiveDependencies: attempt is "Try again": a new watch after a refusal
  useEffect(() => {
    const settings = ice.current;
    if (!socket || !configured || !settings) return;
    setRefusal(null);
    let over = false;
    let stop: (() => void) | undefined;
    void watchVideo(
      socket,
      streamId,
      { iceServers: settings.iceServers ?? [], iceTransportPolicy: settings.iceTransportPolicy },
      (incoming) => {
        if (!over) setStream(incoming);
      },
      // The video never reached the media server: its sentence and "Try again", not an endless "connecting".
      (sentence) => {
        if (!over) setRefusal(sentence);
      },
    ).then((answer) => {
      if (!answer.ok) {
        if (!over) setRefusal(answer.refusal);
      } else if (over) answer.stop();
      else stop = answer.stop;
    });
    return () => {
      over = true;
      stop?.();
      setStream(null);
    };
  }, [socket, streamId, configured, attempt]);
  return { stream, refusal, retry: () => setAttempt((count) => count + 1) };
}

/** How long a capture from a tile waits for the high layer's first frames. */
const HIGH_LAYER_WAIT_MS = 3000;

/**
 * Through the media server, the layer this page receives: the high one while the full view is open, the low one
 * in the tile (asked again for each new connection: a new subscription starts low). A capture from the tile takes
 * the high layer for its frame (`sharpest`), then the tile goes back to the low one.
 */
function useLayer(video: LiveVideo, large: boolean, stream: MediaStream | null) {
  const { socket } = useSharedSocket();
  const { streamId, via } = video;
  useEffect(() => {
    if (!socket || !stream || via !== 'server') return;
    socket.emit('video_layer', { streamId, layer: large ? 'high' : 'low' });
  }, [socket, stream, streamId, via, large]);
  return async function sharpest<T>(element: HTMLVideoElement, grab: () => Promise<T>): Promise<T> {
    if (!socket || via !== 'server' || large) return grab();
    const before = element.videoWidth;
    socket.emit('video_layer', { streamId, layer: 'high' });
    const until = Date.now() + HIGH_LAYER_WAIT_MS;
    while (element.videoWidth <= before && Date.now() < until) await new Promise((done) => setTimeout(done, 100));
    try {
      return await grab();
    } finally {
      socket.emit('video_layer', { streamId, layer: 'low' });
    }
  };
}

/** The frame now, as a JPEG file named after its time. */
function grabFrame(video: HTMLVideoElement): Promise<File | null> {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const context = canvas.getContext('2d');
  if (!context || canvas.width === 0) return Promise.resolve(null);
  context.drawImage(video, 0, 0);
  return new Promise((resolve) =>
    canvas.toBlob(
      (blob) => resolve(blob ? new File([blob], `capture-${Date.now()}.jpg`, { type: 'image/jpeg' }) : null),
      'image/jpeg',
      0.9,
    ),
  );
}

export function LiveVideoView({
  video,
  channelName,
  position,
  canCapture,
  onOpenChat,
}: {
  video: LiveVideo;
  channelName: string;
  /** The member's last known position (the console's lists of members). */
  position?: LastPosition | null;
  /** Captures go to the chat (the console). */
  canCapture: boolean;
  /** Issue 70: opens the channel's chat, where a capture went (the notice leads there). */
  onOpenChat?: () => void;
}) {
  const { t, i18n } = useTranslation('video');
  const notify = useNotify();
  const { stream, refusal, retry } = useWatchedStream(video.streamId);
  const [large, setLarge] = useState(false);
  const sharpest = useLayer(video, large, stream);
  const [sending, setSending] = useState(false);
  /** A capture sent from the full view, said in it: a modal view hides the page's notice from a screen reader. */
  const [sentInView, setSentInView] = useState(false);
  const element = useRef<HTMLVideoElement>(null);
  const largeElement = useRef<HTMLVideoElement>(null);
  const label = t('live.of', { name: video.name });

  /** The frame of the view it is asked from: the tile's (the high layer for a moment) or the full view's. */
  const capture = async (shown: HTMLVideoElement | null) => {
    const frame = shown ? await sharpest(shown, () => grabFrame(shown)) : null;
    if (!frame) return;
    setSending(true);
    setSentInView(false);
    const textMsg = t('live.captureText', {
      name: video.name,
      time: formatDate(new Date(), 'dd MMM yyyy HH:mm:ss', i18n.resolvedLanguage),
      position: position ? `${position.lat.toFixed(5)}, ${position.lng.toFixed(5)}` : t('live.noPosition'),
    });
    try {
      await uploadImage(frame, { channelId: video.channelId, textMsg }, getToken());
      const openChat = onOpenChat;
      if (shown === largeElement.current) setSentInView(true);
      notify({
        severity: 'success',
        message: t('live.captured', { channel: channelName }),
        ...(openChat
          ? {
              action: {
                label: t('live.openChat'),
                onClick: () => {
                  setLarge(false);
                  openChat();
                },
              },
            }
          : {}),
      });
    } catch {
      notify({ severity: 'error', message: t('live.captureFailed') });
    } finally {
      setSending(false);
    }
  };

  return (
    <Box
      role="group"
      aria-label={t('live.stream', { name: video.name })}
      sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, minWidth: 0 }}
    >
      <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap>
        {t('live.since', { name: video.name, time: formatDate(video.startedAt, 'HH:mm', i18n.resolvedLanguage) })}
      </Typography>
      {refusal ? (
        <Alert
          severity="warning"
          action={
            <Button color="inherit" size="small" onClick={retry}>
              {t('live.retry')}
            </Button>
          }
        >
          {refusal}
        </Alert>
      ) : (
        <>
          <StreamVideo stream={stream} label={label} videoRef={element} maxHeight={200} />
          {stream ? null : (
            <Typography variant="caption" role="status" sx={{ color: 'text.secondary' }}>
              {t('live.connecting')}
            </Typography>
          )}
          <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
            <Button
              size="small"
              startIcon={<FullscreenIcon />}
              disabled={!stream}
              onClick={() => {
                setSentInView(false);
                setLarge(true);
              }}
            >
              {t('live.fullScreen')}
            </Button>
            {canCapture ? (
              <Button
                size="small"
                startIcon={<PhotoCameraIcon />}
                disabled={!stream || sending}
                onClick={() => void capture(element.current)}
              >
                {t('live.capture')}
              </Button>
            ) : null}
          </Box>
        </>
      )}
      <Dialog open={large} onClose={() => setLarge(false)} fullScreen aria-labelledby={`video-${video.streamId}`}>
        <DialogTitle id={`video-${video.streamId}`}>{label}</DialogTitle>
        <DialogContent sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
          <StreamVideo stream={stream} label={label} videoRef={largeElement} maxHeight="calc(100dvh - 160px)" />
        </DialogContent>
        <DialogActions>
          <Typography role="status" variant="body2" sx={{ flex: 1, color: 'success.dark', fontWeight: 600 }}>
            {sentInView ? t('live.captured', { channel: channelName }) : ''}
          </Typography>
          {sentInView && onOpenChat ? (
            <Button
              onClick={() => {
                setLarge(false);
                onOpenChat();
              }}
            >
              {t('live.openChat')}
            </Button>
          ) : null}
          {/* Issue 70: the full view's sharper frame, captured where it is watched. */}
          {canCapture ? (
            <Button
              startIcon={<PhotoCameraIcon />}
              disabled={!stream || sending}
              onClick={() => void capture(largeElement.current)}
            >
              {t('live.capture')}
            </Button>
          ) : null}
          <Button onClick={() => setLarge(false)}>{t('live.close')}</Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
