/**
 * One recorded transmission in the channel's timeline: the talker, the time, the duration and a play button
 * named for screen readers; a download link; a delete button for administrators.
 */
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DownloadIcon from '@mui/icons-material/Download';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import StopIcon from '@mui/icons-material/Stop';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { VoiceMessage } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { BubbleHeader } from './BubbleHeader.tsx';

/** 2150 ms -> "0:02" (rounded to the second, at least 1 s). */
export function voiceDuration(durationMs: number): string {
  const seconds = Math.max(1, Math.round(durationMs / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export interface VoiceItemProps {
  item: VoiceMessage;
  own: boolean;
  playing: boolean;
  onPlay: () => void;
  onStop: () => void;
  /** Administrators only. */
  onDelete?: () => void;
}

export function VoiceItem({ item, own, playing, onPlay, onStop, onDelete }: VoiceItemProps) {
  const { t } = useTranslation('room');
  const talker = own ? t('chat.me') : item.display_name || t('chat.formerUser');
  const duration = voiceDuration(item.durationMs);
  const seconds = Math.max(1, Math.round(item.durationMs / 1000));
  return (
    <Box
      component="li"
      data-voice-id={item.id}
      data-duration-ms={item.durationMs}
      aria-label={t('history.itemFrom', { name: talker })}
      sx={{ display: 'flex', flexDirection: 'column', alignItems: own ? 'flex-end' : 'flex-start', listStyle: 'none' }}
    >
      <BubbleHeader name={talker} own={own} createdAt={item.createdAt} />
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 0.5,
          pl: 0.5,
          pr: 1.5,
          py: 0.25,
          borderRadius: 5,
          border: '1px solid',
          borderColor: playing ? 'primary.main' : 'divider',
          bgcolor: playing ? 'rgba(25,118,210,0.08)' : 'background.paper',
        }}
      >
        {playing ? (
          <IconButton size="small" color="primary" onClick={onStop} aria-label={t('history.stop')}>
            <StopIcon />
          </IconButton>
        ) : (
          <IconButton
            size="small"
            color="primary"
            onClick={onPlay}
            aria-label={t('history.play', { name: talker, count: seconds })}
          >
            <PlayArrowIcon />
          </IconButton>
        )}
        <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }} data-testid="voice-duration">
          {duration}
        </Typography>
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {t('history.transmission')}
        </Typography>
        <Tooltip title={t('chat.download')}>
          <IconButton
            size="small"
            component="a"
            href={item.url}
            download
            aria-label={t('history.download', { name: talker })}
          >
            <DownloadIcon fontSize="small" />
          </IconButton>
        </Tooltip>
        {onDelete ? (
          <Tooltip title={t('chat.delete')}>
            <IconButton size="small" onClick={onDelete} aria-label={t('history.delete', { name: talker })}>
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : null}
      </Box>
    </Box>
  );
}
