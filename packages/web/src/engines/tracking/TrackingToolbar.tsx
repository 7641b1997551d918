/**
 * Beside a map: whose trail to draw and over which period, a sentence saying what is drawn, the export of the
 * followed trail (or of the channel's), a time slider that replays where everyone was at a moment (and plays it
 * back), and the zone tools for those who may draw (ZoneTools).
 */
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import Pause from '@mui/icons-material/Pause';
import PlayArrow from '@mui/icons-material/PlayArrow';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Slider from '@mui/material/Slider';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { POSITION_HISTORY_MAX_POINTS } from '@talkgroup/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../i18n/dates.ts';
import { PositionExportDialog, type PositionExportTarget } from './PositionExportDialog.tsx';
import { TRAIL_PERIODS, type TrailPeriod } from './trailMath.ts';
import type { MapTracking } from './useMapTracking.ts';
import { ZoneTools } from './ZoneTools.tsx';

const NONE = 'none';

/** Re-reads the clock every so often: the slider's end is now. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

function TrailSummary({ tracking }: { tracking: MapTracking }) {
  const { t, i18n } = useTranslation('tracking');
  const { followed, followedState } = tracking;
  const member = tracking.followable.find((candidate) => candidate.id === tracking.followedId);
  if (!member) return null;
  const time = (iso: string) => formatDate(iso, 'dd MMM HH:mm', i18n.resolvedLanguage);
  let text: string;
  if (followedState.error) text = t('trail.failed');
  else if (!followed) text = t('trail.loading');
  else if (followed.points.length === 0) text = t('trail.empty', { name: member.name });
  else
    text = t('trail.summary', {
      name: member.name,
      count: followed.points.length,
      from: time(followed.points[0].createdAt),
      to: time(followed.points[followed.points.length - 1].createdAt),
    });
  return (
    <Typography variant="body2" role="status" sx={{ color: followedState.error ? 'error.main' : 'text.secondary' }}>
      {text}
      {followed?.truncated ? ` ${t('trail.truncated', { max: POSITION_HISTORY_MAX_POINTS })}` : ''}
    </Typography>
  );
}

export function TrackingToolbar({ tracking, channelName }: { tracking: MapTracking; channelName?: string }) {
  const { t, i18n } = useTranslation('tracking');
  const now = useNow(15_000);
  const [exporting, setExporting] = useState<PositionExportTarget | null>(null);
  const followedMember = tracking.followable.find((member) => member.id === tracking.followedId);
  const at = tracking.replayAt;
  const end = Math.max(now, tracking.start + 60_000);
  const clock = (value: number) => formatDate(value, 'dd MMM HH:mm:ss', i18n.resolvedLanguage);

  const exportTarget = (): PositionExportTarget | null => {
    if (followedMember) return { userIds: [followedMember.id], name: followedMember.name };
    if (tracking.channelId !== undefined && tracking.followsOthers)
      return { channelId: tracking.channelId, name: channelName ?? '' };
    return null;
  };

  return (
    <Box component="section" aria-label={t('trail.title')} sx={{ display: 'grid', gap: 1.5, mb: 1.5 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}>
        <TextField
          select
          size="small"
          label={t('trail.member')}
          fullWidth={false}
          value={tracking.followedId === null ? NONE : String(tracking.followedId)}
          onChange={(event) => tracking.setFollowedId(event.target.value === NONE ? null : Number(event.target.value))}
          sx={{ width: 240, maxWidth: '100%' }}
        >
          <MenuItem value={NONE}>{t('trail.none')}</MenuItem>
          {tracking.followable.map((member) => (
            <MenuItem key={member.id} value={String(member.id)}>
              {member.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('trail.period')}
          fullWidth={false}
          value={tracking.period}
          onChange={(event) => tracking.setPeriod(event.target.value as TrailPeriod)}
          sx={{ width: 200, maxWidth: '100%' }}
        >
          {(Object.keys(TRAIL_PERIODS) as TrailPeriod[]).map((period) => (
            <MenuItem key={period} value={period}>
              {t(`trail.periods.${period}`)}
            </MenuItem>
          ))}
        </TextField>
        {exportTarget() ? (
          <Button
            variant="outlined"
            size="small"
            startIcon={<FileDownloadOutlined />}
            onClick={() => setExporting(exportTarget())}
          >
            {followedMember ? t('export.userButton', { name: followedMember.name }) : t('export.button')}
          </Button>
        ) : null}
      </Box>
      <TrailSummary tracking={tracking} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, px: 0.5 }}>
        <IconButton
          aria-label={tracking.playing ? t('replay.pause') : t('replay.play')}
          onClick={() => tracking.setPlaying(!tracking.playing)}
        >
          {tracking.playing ? <Pause /> : <PlayArrow />}
        </IconButton>
        <Slider
          aria-label={t('replay.label')}
          min={tracking.start}
          max={end}
          step={1000}
          value={at ?? end}
          onChange={(_event, value) => {
            const next = value as number;
            tracking.setReplayAt(next >= end ? null : next);
          }}
          getAriaValueText={(value) => (value >= end ? t('replay.live') : clock(value))}
          valueLabelDisplay="auto"
          valueLabelFormat={(value) => (value >= end ? t('replay.live') : clock(value))}
          sx={{ flex: 1 }}
        />
        <Button size="small" disabled={at === null} onClick={() => tracking.setReplayAt(null)}>
          {t('replay.live')}
        </Button>
      </Box>
      {at !== null ? (
        <Typography variant="body2" role="status" sx={{ color: 'text.secondary' }}>
          {t('replay.at', { time: clock(at) })}
        </Typography>
      ) : null}
      {tracking.draws ? <ZoneTools tracking={tracking} /> : null}
      <PositionExportDialog target={exporting} onClose={() => setExporting(null)} />
    </Box>
  );
}
