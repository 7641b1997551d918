/**
 * A dispatcher asks for the member's video (issue 61 item 2), on whichever /talk page is open: "{name} asks for
 * your video" with "Share" and "Decline". Share (or a request without consent, at once) opens the channel's page,
 * which starts the video naming the request (useTalkVideo); Decline answers `video_request_answer`. A request
 * answered on another of the member's devices, started, or left unanswered until it expired goes from this one
 * too (`video_request_closed`).
 */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import type { VideoRequest } from '@talkgroup/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useSharedSocket } from '../../api/serverEvents.ts';

/** What the channel's page is handed to start (react-router's location state). */
export interface TalkVideoRequestState {
  videoRequest: { requestId: string; withoutConsent: boolean };
}

export function VideoRequestPrompt() {
  const { t } = useTranslation('video');
  const { socket } = useSharedSocket();
  const navigate = useNavigate();
  const location = useLocation();
  const [asking, setAsking] = useState<VideoRequest | null>(null);

  useEffect(() => {
    if (!socket) return;
    const onRequest = (request: VideoRequest) => {
      if (request.withoutConsent) {
        navigate(`/talk/${request.channelId}`, {
          state: { videoRequest: { requestId: request.requestId, withoutConsent: true } },
        });
      } else setAsking(request);
    };
    const onClosed = ({ requestId }: { requestId: string }) =>
      setAsking((current) => (current?.requestId === requestId ? null : current));
    socket.on('video_request', onRequest);
    socket.on('video_request_closed', onClosed);
    return () => {
      socket.off('video_request', onRequest);
      socket.off('video_request_closed', onClosed);
    };
  }, [socket, navigate]);

  if (!asking) return null;
  const answer = (accepted: boolean) => {
    setAsking(null);
    if (!accepted) {
      socket?.emit('video_request_answer', { requestId: asking.requestId, accepted: false });
      return;
    }
    const state: TalkVideoRequestState = { videoRequest: { requestId: asking.requestId, withoutConsent: false } };
    const path = `/talk/${asking.channelId}`;
    navigate(path, { state, replace: location.pathname === path });
  };
  const title = t('request.asks', { name: asking.name });
  return (
    <Dialog open aria-labelledby="video-request-title" onClose={() => undefined}>
      <DialogTitle id="video-request-title">{title}</DialogTitle>
      <DialogContent>
        <Typography variant="body2">{t('share.live')}</Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => answer(false)} sx={{ minHeight: 48 }}>
          {t('request.decline')}
        </Button>
        <Button variant="contained" onClick={() => answer(true)} sx={{ minHeight: 48 }}>
          {t('request.share')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
