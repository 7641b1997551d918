/** The top of a /talk channel page: the status beside its title (position shared, connected) and its four tabs. */
import ChatIcon from '@mui/icons-material/ChatBubbleOutlineOutlined';
import GroupIcon from '@mui/icons-material/GroupOutlined';
import MapIcon from '@mui/icons-material/MapOutlined';
import MyLocationIcon from '@mui/icons-material/MyLocation';
import RecordVoiceOverIcon from '@mui/icons-material/RecordVoiceOver';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../components/visuallyHidden.ts';
import { markMessagesSeen } from './chatSeen.ts';

export type TalkTab = 'talk' | 'chat' | 'members' | 'map';

/** The messages that came while the chat tab was not shown; showing it marks them seen (the /talk list's count). */
export function useUnreadChat(messages: ReadonlyArray<{ id: number }>, tab: TalkTab, channelId: number): number {
  const seen = useRef(messages.length);
  if (tab === 'chat') seen.current = messages.length;
  const newestId = messages.reduce((newest, message) => Math.max(newest, message.id), 0);
  useEffect(() => {
    if (tab === 'chat' && newestId) markMessagesSeen(channelId, newestId);
  }, [tab, newestId, channelId]);
  return tab === 'chat' ? 0 : Math.max(0, messages.length - seen.current);
}

/** Beside the channel's name: a dot while this phone shares its position, and whether the voice is live. */
export function TalkChannelStatus({ sharingPosition, live }: { sharingPosition: boolean; live: boolean }) {
  const { t } = useTranslation('talk');
  return (
    <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center', flexShrink: 0 }}>
      {sharingPosition ? (
        <Box
          role="img"
          aria-label={t('position.indicator')}
          title={t('position.indicator')}
          sx={{
            width: 32,
            height: 32,
            borderRadius: '50%',
            display: 'grid',
            placeItems: 'center',
            bgcolor: '#1e5f8a',
          }}
        >
          <MyLocationIcon fontSize="small" aria-hidden />
        </Box>
      ) : null}
      <Chip
        size="small"
        label={live ? t('channel.connected') : t('channel.connecting')}
        sx={{ color: '#fff', bgcolor: live ? '#1e7d3a' : 'rgba(255,255,255,0.16)' }}
      />
    </Box>
  );
}

export function TalkChannelTabs({
  tab,
  onChange,
  unread,
  canSeeMap,
}: {
  tab: TalkTab;
  onChange: (tab: TalkTab) => void;
  unread: number;
  canSeeMap: boolean;
}) {
  const { t } = useTranslation('talk');
  return (
    <Tabs
      value={tab}
      onChange={(_event, value: TalkTab) => onChange(value)}
      variant="fullWidth"
      aria-label={t('channel.sections')}
      sx={{
        bgcolor: '#0f2537',
        color: '#fff',
        minHeight: 48,
        '& .MuiTab-root': {
          color: 'rgba(255,255,255,0.85)',
          minHeight: 48,
          minWidth: 0,
          px: 0.5,
          fontSize: '0.78rem',
        },
        '& .MuiTab-root.Mui-selected': { color: '#fff' },
        '& .MuiTabs-indicator': { bgcolor: '#f2a541', height: 3 },
      }}
    >
      <Tab value="talk" icon={<RecordVoiceOverIcon />} iconPosition="top" label={t('tabs.talk')} />
      <Tab
        value="chat"
        icon={
          <Badge color="secondary" badgeContent={unread} max={99} aria-hidden>
            <ChatIcon />
          </Badge>
        }
        iconPosition="top"
        label={
          <span>
            {t('tabs.chat')}
            {unread ? <span style={visuallyHidden}>{`, ${t('tabs.chatUnread', { count: unread })}`}</span> : null}
          </span>
        }
      />
      <Tab value="members" icon={<GroupIcon />} iconPosition="top" label={t('tabs.members')} />
      {canSeeMap ? <Tab value="map" icon={<MapIcon />} iconPosition="top" label={t('tabs.map')} /> : null}
    </Tabs>
  );
}
