/**
 * Above the channel's timeline: the "recorded" mark while the channel records its transmissions, "play
 * missed" (every transmission since the last one listened to, in order) and, for administrators, the export.
 */
import FileDownloadIcon from '@mui/icons-material/FileDownloadOutlined';
import PlaylistPlayIcon from '@mui/icons-material/PlaylistPlay';
import StopIcon from '@mui/icons-material/Stop';
import VideoLibraryIcon from '@mui/icons-material/VideoLibraryOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RecordedMark } from '../../voice/index.ts';
import { ChannelVideosDialog } from './ChannelVideosDialog.tsx';
import type { VoiceHistory } from './useVoiceHistory.ts';
import { VoiceExportDialog } from './VoiceExportDialog.tsx';

export interface VoiceBarProps {
  voice: VoiceHistory;
  recording: boolean;
  /** An administrator's room: the export is offered. */
  exportChannel?: { id: number; name: string; rtcSession: string };
  /** Issue 61: the channel whose recorded live videos are offered. */
  videosChannel?: { id: number; name: string };
}

export function VoiceBar({ voice, recording, exportChannel, videosChannel }: VoiceBarProps) {
  // 'video' loads with the bar, not when its dialog opens.
  const { t } = useTranslation(['room', 'video']);
  const [exportOpen, setExportOpen] = useState(false);
  const [videosOpen, setVideosOpen] = useState(false);
  if (!recording && voice.items.length === 0 && !exportChannel && !videosChannel) return null;
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        flexWrap: 'wrap',
        gap: 1,
        px: 2,
        py: 0.75,
        borderBottom: '1px solid',
        borderColor: 'divider',
        bgcolor: 'background.paper',
      }}
    >
      {recording ? <RecordedMark /> : null}
      <Box sx={{ flex: 1 }} />
      {voice.playing !== null ? (
        <Button size="small" startIcon={<StopIcon />} onClick={voice.stop}>
          {t('room:history.stopPlayback')}
        </Button>
      ) : (
        <Button
          size="small"
          startIcon={<PlaylistPlayIcon />}
          onClick={voice.playMissed}
          disabled={voice.missed.length === 0}
        >
          {t('room:history.playMissed', { count: voice.missed.length })}
        </Button>
      )}
      {videosChannel ? (
        <>
          <Button size="small" startIcon={<VideoLibraryIcon />} onClick={() => setVideosOpen(true)}>
            {t('video:recordings.open')}
          </Button>
          <ChannelVideosDialog open={videosOpen} onClose={() => setVideosOpen(false)} channel={videosChannel} />
        </>
      ) : null}
      {exportChannel ? (
        <>
          <Button size="small" startIcon={<FileDownloadIcon />} onClick={() => setExportOpen(true)}>
            {t('room:history.export')}
          </Button>
          <VoiceExportDialog open={exportOpen} onClose={() => setExportOpen(false)} channel={exportChannel} />
        </>
      ) : null}
    </Box>
  );
}
