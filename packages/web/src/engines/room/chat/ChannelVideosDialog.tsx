/**
 * A channel's recorded live videos (issue 61 item 5), beside its voice history: getChannelVideos, newest first,
 * each with the sharer's name, when and how long, and a player (the signed link, served with byte ranges so that
 * it seeks). A reader outside the channel's video audience sees only its own; "Older videos" pages back.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { GetChannelVideos } from '@talkgroup/protocol';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../../api/client.ts';
import { callKey } from '../../../api/queries.ts';
import { formatDate } from '../../../i18n/dates.ts';

function duration(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}

export function ChannelVideosDialog({
  open,
  onClose,
  channel,
}: {
  open: boolean;
  onClose: () => void;
  channel: { id: number; name: string };
}) {
  const { t, i18n } = useTranslation('video');
  const videos = useInfiniteQuery({
    queryKey: callKey(GetChannelVideos, { channelId: channel.id }),
    queryFn: ({ pageParam, signal }) =>
      api(
        GetChannelVideos,
        pageParam === undefined ? { channelId: channel.id } : { channelId: channel.id, beforeId: pageParam },
        { signal },
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.hasMore ? last.res[last.res.length - 1]?.id : undefined),
    enabled: open,
  });
  const list = videos.data?.pages.flatMap((page) => page.res) ?? [];
  const title = t('recordings.title', { channel: channel.name });
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="channel-videos-title">
      <DialogTitle id="channel-videos-title">{title}</DialogTitle>
      <DialogContent>
        {videos.isPending ? <CircularProgress aria-label={title} /> : null}
        {videos.error ? <Alert severity="error">{errorMessage(videos.error, t('recordings.loadFailed'))}</Alert> : null}
        {videos.isSuccess && list.length === 0 ? <Typography>{t('recordings.empty')}</Typography> : null}
        <Box component="ul" aria-label={title} sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2 }}>
          {list.map((video) => {
            const time = formatDate(video.startedAt, undefined, i18n.resolvedLanguage);
            return (
              <Box component="li" key={video.id}>
                <Typography variant="body2" sx={{ fontWeight: 600, mb: 0.5 }}>
                  {t('recordings.item', { name: video.name, time, duration: duration(video.durationMs) })}
                </Typography>
                <Box
                  component="video"
                  controls
                  preload="metadata"
                  playsInline
                  src={video.url}
                  aria-label={t('recordings.player', { name: video.name, time })}
                  sx={{ width: '100%', maxHeight: 360, bgcolor: 'common.black', borderRadius: 1 }}
                />
              </Box>
            );
          })}
        </Box>
        {videos.hasNextPage ? (
          <Button onClick={() => void videos.fetchNextPage()} disabled={videos.isFetchingNextPage} sx={{ mt: 1 }}>
            {t('recordings.more')}
          </Button>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('recordings.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
