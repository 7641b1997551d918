/**
 * One monitored channel on the dispatch console: its voice room on the page's socket (talk mode, heard
 * through its own gain: ChannelOutput), who talks now, its last transmission with play, members connected of
 * total, an open SOS, its patch, its volume and mute, "Talk on {channel}" (the space bar too when selected),
 * the all call's and patch's check box, a private call to one of its members, and its members with their
 * statuses (issue 49: the talker's too), which a dispatcher sets there.
 */
import CampaignIcon from '@mui/icons-material/Campaign';
import ForumIcon from '@mui/icons-material/ForumOutlined';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import VolumeUpIcon from '@mui/icons-material/VolumeUp';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Slider from '@mui/material/Slider';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { VoiceMessage } from '@talkgroup/protocol';
import type { TFunction } from 'i18next';
import { memo, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getToken } from '../../api/session.ts';
import type { TalkgroupSocket } from '../../api/socket.ts';
import { statusLabel, useMemberStatuses } from '../../api/statuses.ts';
import { ChannelLiveVideos } from '../../engines/video/index.ts';
import {
  type FloorWait,
  PushToTalkButton,
  playVoiceMessages,
  useTransmissionRecorder,
  useVoiceRoom,
  type VoiceRoom,
} from '../../engines/voice/index.ts';
import { formatDate } from '../../i18n/dates.ts';
import { CallMembersMenu } from './CallMembersMenu.tsx';
import { ChannelOutput } from './channelOutput.ts';
import { RegroupTileLine } from './regroup/RegroupTileLine.tsx';
import { TileAreaMembers } from './TileAreaMembers.tsx';
import { TileFloorQueue } from './TileFloorQueue.tsx';
import { TileMembers } from './TileMembers.tsx';
import type { Talker } from './useTalkers.ts';

export interface TileChannel {
  id: number;
  name: string;
  rtcSession: string;
  recording: boolean;
  connected: number;
  usersCount: number;
}

export interface DispatchTileProps {
  channel: TileChannel;
  /** 1 to 9: its key. */
  index: number;
  selected: boolean;
  volume: number;
  muted: boolean;
  /** What the page plays of it now, 0..1 (volume, selection, mute, an SOS). */
  level: number;
  checked: boolean;
  sos: string | null;
  patchedWith: string[];
  talkers: Talker[];
  last: VoiceMessage | undefined;
  socket: TalkgroupSocket | null;
  iceServers: RTCIceServer[] | undefined;
  self: { id: number; name: string };
  onSelect: (channelId: number) => void;
  onVolume: (channelId: number, volume: number, committed: boolean) => void;
  onMute: (channelId: number, muted: boolean) => void;
  onCheck: (channelId: number, checked: boolean) => void;
  /** Issue 70: opens the channel's chat beside the console (a capture goes there). */
  onOpenChat: (channelId: number) => void;
  /** The tile's voice room and output, for the all call and the diagnostics (null once it goes). */
  onVoice: (room: string, voice: { engine: VoiceRoom; output: ChannelOutput } | null) => void;
}

export const DispatchTile = memo(function DispatchTile(props: DispatchTileProps) {
  const { channel, index, selected, volume, muted, checked, sos, patchedWith, talkers, last } = props;
  const { self, onSelect, onVolume, onMute, onCheck, onOpenChat } = props;
  const { t, i18n } = useTranslation('dispatch');
  const { t: tRoom } = useTranslation('room');
  const { state, talk, cancelWait } = useTileVoice(props);
  const { floorWait: wait } = state;
  const statuses = useMemberStatuses();
  const gateways = state.peers.filter((peer) => peer.gateway !== undefined);
  const speaking = (
    state.micOn ? [{ userId: self.id, name: self.name }, ...talkers.filter(({ name }) => name !== self.name)] : talkers
  ).map(({ userId, name }) => {
    const entry = statuses.get(userId);
    return entry ? t('tile.talkerStatus', { name, status: statusLabel(entry.status, i18n.resolvedLanguage) }) : name;
  });

  return (
    <Paper
      component="section"
      aria-label={t('tile.label', { channel: channel.name })}
      variant="outlined"
      data-selected={selected ? 'true' : 'false'}
      sx={{
        p: 1.5,
        borderRadius: 3,
        borderWidth: selected ? 3 : 1,
        borderColor: sos ? 'error.main' : selected ? 'primary.main' : 'divider',
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
        minWidth: 0,
      }}
    >
      <TileHeader
        channel={channel}
        index={index}
        selected={selected}
        checked={checked}
        sos={sos}
        onSelect={onSelect}
        onCheck={onCheck}
      />
      {/* Issue 70: a regroup's tile says it is temporary and when it ends. */}
      <RegroupTileLine channelId={channel.id} />
      {/* What matters first, never cut nor pushed below the fold (issue 58): who talks, then the talk button;
          the members' list below scrolls inside the tile. */}
      <Typography
        role="status"
        aria-label={t('tile.talking', { channel: channel.name })}
        sx={{
          fontWeight: speaking.length ? 700 : 400,
          color: speaking.length ? 'success.main' : 'text.secondary',
          overflowWrap: 'anywhere',
        }}
      >
        {speaking.length ? t('tile.talkers', { names: speaking.join(', ') }) : t('tile.quiet')}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <PushToTalkButton
          micOn={state.micOn}
          heldBy={state.floorHolder}
          wait={wait}
          disabled={!state.micReady || !state.joined}
          onChange={talk}
          size={64}
          spaceBar={selected}
          compact
          label={t('tile.talk', { channel: channel.name })}
        />
        <Typography
          variant="caption"
          sx={{
            flex: 1,
            minWidth: 0,
            overflowWrap: 'anywhere',
            color: state.floorHolder || wait ? 'warning.dark' : 'text.secondary',
          }}
        >
          {state.micOn
            ? t('tile.onAir')
            : wait
              ? tileWaitText(wait, tRoom)
              : state.floorHolder
                ? t('tile.busy', { name: state.floorHolder })
                : state.joined
                  ? ''
                  : t('tile.joining')}
        </Typography>
        {!state.micOn && (wait?.kind === 'queued' || wait?.kind === 'offered') ? (
          <Button size="small" color="warning" onClick={cancelWait}>
            {tRoom('ptt.cancelQueue')}
          </Button>
        ) : null}
        <CallMembersMenu channel={channel} />
      </Box>
      <TileFloorQueue socket={props.socket} room={channel.rtcSession} />
      {/* Issue 61: the channel's live videos, beside its voice. */}
      <ChannelLiveVideos channel={channel} canCapture onOpenChat={() => onOpenChat(channel.id)} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="body2" aria-label={t('tile.connectedOf', { channel: channel.name })}>
          {t('tile.connected', { connected: channel.connected, total: channel.usersCount })}
        </Typography>
        {patchedWith.length ? (
          <Chip
            size="small"
            icon={<CampaignIcon />}
            color="info"
            label={t('tile.patchedWith', { channels: patchedWith.join(', ') })}
            sx={{ maxWidth: '100%', height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal' } }}
          />
        ) : null}
        <Button
          size="small"
          startIcon={<ForumIcon />}
          aria-label={t('tile.chat', { channel: channel.name })}
          onClick={() => onOpenChat(channel.id)}
          sx={{ ml: 'auto' }}
        >
          {t('tile.chatShort')}
        </Button>
      </Box>
      <TileMembers channel={channel} statuses={statuses} gateways={gateways} />
      <TileAreaMembers channel={channel} />
      <LastTransmission channel={channel} last={last} />
      <TileVolume channel={channel} volume={volume} muted={muted} onVolume={onVolume} onMute={onMute} />
    </Paper>
  );
});

/**
 * The tile's voice room on the page's socket, in talk mode, heard through its own gain (ChannelOutput, at the
 * level the page gives it), each transmission recorded where the channel records; handed to the page (onVoice).
 */
function useTileVoice({ channel, level, socket, iceServers, self, onVoice }: DispatchTileProps) {
  const [output] = useState(() => new ChannelOutput());
  useEffect(() => () => output.close(), [output]);
  useEffect(() => output.setLevel(level), [output, level]);
  const recorder = useTransmissionRecorder({
    channelId: channel.id,
    recording: channel.recording,
    userId: self.id,
    token: getToken() ?? undefined,
    socket,
  });
  const { engine, state } = useVoiceRoom({
    socket,
    enabled: iceServers !== undefined,
    room: channel.rtcSession,
    name: self.name,
    mode: 'talk',
    iceServers: iceServers ?? [],
    linkTones: false,
    recorder,
    output,
  });
  useEffect(() => {
    if (!engine) return;
    onVoice(channel.rtcSession, { engine, output });
    return () => onVoice(channel.rtcSession, null);
  }, [engine, output, channel.rtcSession, onVoice]);
  const talk = useCallback((on: boolean) => engine?.setMicEnabled(on), [engine]);
  return { state, talk, cancelWait: engine?.cancelFloorQueue };
}

/** The tile's line for its own press waiting in the floor queue, offered the floor, or cut off (issue 59). */
function tileWaitText(wait: NonNullable<FloorWait>, t: TFunction<'room'>): string {
  if (wait.kind === 'queued') return t('ptt.queued', { count: wait.position, ordinal: true });
  if (wait.kind === 'missed') return t('ptt.turnMissed');
  return wait.kind === 'offered' ? t('ptt.yourTurn') : t('ptt.interrupted', { name: wait.by });
}

/** The check box (all call, patch), the key and name, an open SOS and "Select {channel}". */
function TileHeader({
  channel,
  index,
  selected,
  checked,
  sos,
  onSelect,
  onCheck,
}: Pick<DispatchTileProps, 'channel' | 'index' | 'selected' | 'checked' | 'sos' | 'onSelect' | 'onCheck'>) {
  const { t } = useTranslation('dispatch');
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <Checkbox
        size="small"
        sx={{ flexShrink: 0 }}
        checked={checked}
        onChange={(event) => onCheck(channel.id, event.target.checked)}
        slotProps={{ input: { 'aria-label': t('tile.check', { channel: channel.name }) } }}
      />
      {/* Wrapped, never cut: "1. Q…" beside an SOS told nobody which channel it was (issue 58). */}
      <Typography component="h2" variant="h6" sx={{ flex: 1, minWidth: 0, fontWeight: 700, overflowWrap: 'anywhere' }}>
        {index <= 9 ? `${index}. ` : ''}
        {channel.name}
      </Typography>
      {sos ? (
        <Chip
          color="error"
          size="small"
          label="SOS"
          aria-label={t('tile.sos', { channel: channel.name, name: sos })}
          sx={{ flexShrink: 0 }}
        />
      ) : null}
      {/* The name stays "Select {channel}" (pressed or not); the text is short so the channel's name shows. */}
      <Button
        size="small"
        variant={selected ? 'contained' : 'outlined'}
        aria-pressed={selected}
        aria-label={t('tile.select', { channel: channel.name })}
        onClick={() => onSelect(channel.id)}
        sx={{ flexShrink: 0 }}
      >
        {selected ? t('tile.selected') : t('tile.selectShort')}
      </Button>
    </Box>
  );
}

/** "Last: {name} at {time}, {seconds} s" and its play button. */
function LastTransmission({ channel, last }: Pick<DispatchTileProps, 'channel' | 'last'>) {
  const { t, i18n } = useTranslation('dispatch');
  const lastText = last
    ? t('tile.last', {
        name: last.display_name,
        time: formatDate(last.createdAt, 'HH:mm', i18n.resolvedLanguage),
        seconds: Math.max(1, Math.round(last.durationMs / 1000)),
      })
    : t('tile.noLast');
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
      <Typography variant="body2" sx={{ flex: 1, minWidth: 0 }} noWrap title={lastText}>
        {lastText}
      </Typography>
      <IconButton
        size="small"
        disabled={!last}
        aria-label={t('tile.playLast', { channel: channel.name })}
        onClick={() => last && playVoiceMessages([last])}
      >
        <PlayArrowIcon fontSize="small" />
      </IconButton>
    </Box>
  );
}

function TileVolume({
  channel,
  volume,
  muted,
  onVolume,
  onMute,
}: Pick<DispatchTileProps, 'channel' | 'volume' | 'muted' | 'onVolume' | 'onMute'>) {
  const { t } = useTranslation('dispatch');
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
      {muted ? <VolumeOffIcon fontSize="small" aria-hidden /> : <VolumeUpIcon fontSize="small" aria-hidden />}
      <Slider
        size="small"
        value={volume}
        min={0}
        max={100}
        onChange={(_event, value) => onVolume(channel.id, value as number, false)}
        onChangeCommitted={(_event, value) => onVolume(channel.id, value as number, true)}
        slotProps={{ input: { 'aria-label': t('tile.volume', { channel: channel.name }) } }}
      />
      {/* Issue 70: named on screen too, not only for a screen reader. */}
      <FormControlLabel
        sx={{ mr: 0, flexShrink: 0 }}
        label={<Typography variant="body2">{t('tile.muteShort')}</Typography>}
        control={
          <Switch
            size="small"
            checked={muted}
            onChange={(event) => onMute(channel.id, event.target.checked)}
            slotProps={{ input: { role: 'switch', 'aria-label': t('tile.mute', { channel: channel.name }) } }}
          />
        }
      />
    </Box>
  );
}
