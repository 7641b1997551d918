/** "Last heard": the latest transmissions across the monitored channels, newest first, each playable. */
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import StopIcon from '@mui/icons-material/Stop';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { VoiceMessage } from '@talkgroup/protocol';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import {
  playingVoiceId,
  playVoiceMessages,
  stopVoicePlayback,
  subscribeVoicePlayback,
} from '../../engines/voice/index.ts';
import { formatDate } from '../../i18n/dates.ts';

export function LastHeardStrip({ items, channelName }: { items: VoiceMessage[]; channelName: (id: number) => string }) {
  const { t, i18n } = useTranslation('dispatch');
  const playing = useSyncExternalStore(subscribeVoicePlayback, playingVoiceId);
  return (
    <Paper component="section" aria-labelledby="last-heard-title" variant="outlined" sx={{ p: 2, borderRadius: 3 }}>
      <Typography id="last-heard-title" component="h2" variant="h6">
        {t('lastHeard.title')}
      </Typography>
      {items.length === 0 ? (
        <Typography sx={{ color: 'text.secondary', mt: 1 }}>{t('lastHeard.empty')}</Typography>
      ) : (
        <List dense aria-label={t('lastHeard.title')} sx={{ maxHeight: 360, overflowY: 'auto' }}>
          {items.map((item) => {
            const text = t('lastHeard.item', {
              name: item.display_name,
              channel: channelName(item.channelId),
              time: formatDate(item.createdAt, 'HH:mm:ss', i18n.resolvedLanguage),
              seconds: Math.max(1, Math.round(item.durationMs / 1000)),
            });
            const isPlaying = playing === item.id;
            return (
              <ListItem
                key={item.id}
                disableGutters
                secondaryAction={
                  <IconButton
                    edge="end"
                    aria-label={isPlaying ? t('lastHeard.stop') : t('lastHeard.play', { item: text })}
                    onClick={() => (isPlaying ? stopVoicePlayback() : playVoiceMessages([item]))}
                  >
                    {isPlaying ? <StopIcon /> : <PlayArrowIcon />}
                  </IconButton>
                }
              >
                <ListItemText primary={text} />
              </ListItem>
            );
          })}
        </List>
      )}
    </Paper>
  );
}
