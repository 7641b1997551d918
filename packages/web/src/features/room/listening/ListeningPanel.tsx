/**
 * "Also listen to": from a channel's room, hear other channels at the same time (issue 25: one socket, many
 * channels). Each channel switched on joins in `listen` mode on the page's socket with a voice room (and a
 * transport) of its own: nothing is sent there, its talkers are heard and named. The choice is kept for the
 * session of the tab.
 */
import HearingIcon from '@mui/icons-material/Hearing';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { memo, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TalkgroupSocket } from '../../../api/socket.ts';
import type { RoomChannel } from '../../../engines/room/useRoomChannel.ts';
import { useVoiceRoom } from '../../../engines/voice/index.ts';

const STORAGE_KEY = 'talkgroup.listening';

function storedChoice(): string[] {
  try {
    const value = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((room): room is string => typeof room === 'string') : [];
  } catch {
    return [];
  }
}

export interface ListeningPanelProps {
  socket: TalkgroupSocket | null;
  /** The channels this user may listen to, besides the room's own. */
  channels: RoomChannel[];
  name: string;
  iceServers: RTCIceServer[] | undefined;
  iceTransportPolicy?: RTCIceTransportPolicy;
}

export const ListeningPanel = memo(function ListeningPanel({
  socket,
  channels,
  name,
  iceServers,
  iceTransportPolicy,
}: ListeningPanelProps) {
  const { t } = useTranslation('room');
  const [listening, setListening] = useState<string[]>(storedChoice);
  const toggle = useCallback((room: string, on: boolean) => {
    setListening((current) => {
      const next = on ? [...new Set([...current, room])] : current.filter((other) => other !== room);
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      } catch {
        // storage disabled: the choice lasts as long as the page
      }
      return next;
    });
  }, []);
  if (channels.length === 0) return null;

  return (
    <Paper component="section" aria-label={t('listening.title')} variant="outlined" sx={{ p: 2, borderRadius: 3 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 0.5 }}>
        <HearingIcon sx={{ color: 'text.secondary' }} aria-hidden />
        <Typography component="h2" variant="h6">
          {t('listening.title')}
        </Typography>
      </Box>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
        {t('listening.help')}
      </Typography>
      <List dense disablePadding>
        {channels.map((channel) => (
          <ListenedChannel
            key={channel.id}
            channel={channel}
            on={listening.includes(channel.rtcSession)}
            onToggle={toggle}
            socket={socket}
            name={name}
            iceServers={iceServers}
            iceTransportPolicy={iceTransportPolicy}
          />
        ))}
      </List>
    </Paper>
  );
});

function ListenedChannel({
  channel,
  on,
  onToggle,
  socket,
  name,
  iceServers,
  iceTransportPolicy,
}: {
  channel: RoomChannel;
  on: boolean;
  onToggle: (room: string, on: boolean) => void;
  socket: TalkgroupSocket | null;
  name: string;
  iceServers: RTCIceServer[] | undefined;
  iceTransportPolicy?: RTCIceTransportPolicy;
}) {
  const { t } = useTranslation('room');
  const { state } = useVoiceRoom({
    socket,
    enabled: on && iceServers !== undefined,
    room: channel.rtcSession,
    mode: 'listen',
    name,
    iceServers: iceServers ?? [],
    iceTransportPolicy,
    linkTones: false,
  });
  const talking = state.peers.filter((peer) => peer.talking).map((peer) => peer.name);
  const status = !on
    ? ''
    : talking.length > 0
      ? t('listening.talking', { names: talking.join(', ') })
      : state.joined
        ? t('listening.quiet')
        : t('listening.joining');
  return (
    <ListItem disableGutters sx={{ gap: 1.5, alignItems: 'center' }}>
      <Switch
        checked={on}
        onChange={(event) => onToggle(channel.rtcSession, event.target.checked)}
        slotProps={{ input: { 'aria-label': t('listening.toggle', { channel: channel.name }) } }}
      />
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{channel.name}</Typography>
        <Typography
          variant="body2"
          role="status"
          aria-label={t('listening.statusOf', { channel: channel.name })}
          sx={{
            color: talking.length > 0 ? 'success.main' : 'text.secondary',
            fontWeight: talking.length > 0 ? 600 : 400,
          }}
        >
          {status}
        </Typography>
      </Box>
    </ListItem>
  );
}
