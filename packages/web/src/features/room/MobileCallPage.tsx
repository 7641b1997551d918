/**
 * The mobile call view, /mobileCallView/:roomId (spec section 2): the channel room laid out for a phone,
 * outside the shell and without a route guard (the session token comes from the browser's storage). Three
 * tabs (voice, messages, members) and the press-to-talk button always at hand at the bottom.
 */
import ChatIcon from '@mui/icons-material/ChatBubbleOutlineOutlined';
import GroupIcon from '@mui/icons-material/GroupOutlined';
import RecordVoiceOverIcon from '@mui/icons-material/RecordVoiceOver';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { usePageTitle } from '../../components/PageHeader.tsx';
import { useActivitySentence } from '../../engines/activities/index.ts';
import { RoomMapSection } from '../../engines/map/RoomMapSection.tsx';
import { ChatPanel } from '../../engines/room/chat/ChatPanel.tsx';
import { ChannelMembersTable } from '../../engines/room/members/ChannelMembersTable.tsx';
import type { ChannelMember } from '../../engines/room/members/useChannelMembers.ts';
import { RoomFrame, SignedInRoom } from '../../engines/room/RoomFrame.tsx';
import { useRoom } from '../../engines/room/useRoom.ts';
import { MediaProblemAlert, PushToTalkButton, VoiceLinkStatus } from '../../engines/voice/index.ts';
import { ParticipantsGrid } from './participants/ParticipantsGrid.tsx';

type MobileTab = 'voice' | 'chat' | 'members';

export default function MobileCallPage() {
  const { t } = useTranslation('room');
  usePageTitle(t('mobileCall.title'));
  return (
    <SignedInRoom title={t('mobileCall.title')}>
      <MobileCall />
    </SignedInRoom>
  );
}

function MobileCall() {
  const { t } = useTranslation('room');
  const { roomId } = useParams();
  const room = useRoom(roomId);
  const { voice, chat, members } = room;
  const [tab, setTab] = useState<MobileTab>('voice');
  const seen = useRef(chat.messages.length);
  if (tab === 'chat') seen.current = chat.messages.length;
  const unread = tab === 'chat' ? 0 : Math.max(0, chat.messages.length - seen.current);
  const describe = useActivitySentence();
  const describeActivity = useCallback(
    (member: ChannelMember) => describe(member.lastActivity, { withDate: true }),
    [describe],
  );

  return (
    <RoomFrame room={room} basePath="/mobileCallView/">
      {(channel) => {
        const { state } = voice;
        const live = room.connected && state.joined;

        return (
          <Box sx={{ height: '100dvh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
            <Box
              component="header"
              sx={{
                bgcolor: '#0f2537',
                color: '#fff',
                px: 2,
                pt: 1.5,
                display: 'flex',
                flexDirection: 'column',
                gap: 0.5,
              }}
            >
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                <Typography component="h1" sx={{ fontWeight: 700, fontSize: '1.2rem', flex: 1, minWidth: 0 }} noWrap>
                  {channel.name}
                </Typography>
                <Chip
                  size="small"
                  label={live ? t('groupCall.connected') : t('groupCall.connecting')}
                  sx={{ color: '#fff', bgcolor: live ? '#1e7d3a' : 'rgba(255,255,255,0.16)' }}
                />
              </Box>
              <Tabs
                value={tab}
                onChange={(_event, value: MobileTab) => setTab(value)}
                variant="fullWidth"
                textColor="inherit"
                sx={{
                  '& .MuiTabs-indicator': { bgcolor: '#f2a541', height: 3 },
                  '& .MuiTab-root': { opacity: 0.82 },
                  '& .MuiTab-root.Mui-selected': { opacity: 1 },
                  minHeight: 44,
                }}
              >
                <Tab
                  value="voice"
                  icon={<RecordVoiceOverIcon />}
                  iconPosition="start"
                  label={t('mobileCall.showVoice')}
                  sx={{ minHeight: 44 }}
                />
                <Tab
                  value="chat"
                  icon={
                    <Badge color="secondary" badgeContent={unread} max={99}>
                      <ChatIcon />
                    </Badge>
                  }
                  iconPosition="start"
                  label={t('mobileCall.showChat')}
                  sx={{ minHeight: 44 }}
                />
                <Tab
                  value="members"
                  icon={<GroupIcon />}
                  iconPosition="start"
                  label={t('mobileCall.showMembers')}
                  sx={{ minHeight: 44 }}
                />
              </Tabs>
            </Box>

            <Box component="main" sx={{ flex: 1, minHeight: 0, overflowY: tab === 'chat' ? 'hidden' : 'auto' }}>
              {tab === 'voice' ? (
                <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
                  <MediaProblemAlert problem={state.mediaProblem} />
                  <VoiceLinkStatus transport={state.transport} problem={state.linkProblem} />
                  <ParticipantsGrid peers={state.peers} dense />
                </Box>
              ) : null}
              {tab === 'chat' ? (
                <ChatPanel chat={chat} userId={room.me?.id} channelName={channel.name} showHeader={false} />
              ) : null}
              {tab === 'members' ? (
                <Box sx={{ p: 1.5 }}>
                  {room.canSeeMap ? (
                    <RoomMapSection
                      members={members.members}
                      isLoading={members.isLoading}
                      config={room.config}
                      describeActivity={describeActivity}
                      channel={{ id: channel.id, name: channel.name }}
                    />
                  ) : (
                    <ChannelMembersTable members={members.members} isLoading={members.isLoading} onSelect={() => {}} />
                  )}
                </Box>
              ) : null}
            </Box>

            {tab !== 'chat' ? (
              <Box
                sx={{
                  py: 1.5,
                  display: 'flex',
                  justifyContent: 'center',
                  borderTop: '1px solid',
                  borderColor: 'divider',
                  bgcolor: 'background.paper',
                  pb: 'calc(12px + env(safe-area-inset-bottom))',
                }}
              >
                <PushToTalkButton
                  micOn={state.micOn}
                  heldBy={state.floorHolder}
                  wait={state.floorWait}
                  onCancelWait={voice.engine?.cancelFloorQueue}
                  disabled={!state.micReady || !state.joined}
                  onChange={(on) => voice.engine?.setMicEnabled(on)}
                  size={96}
                />
              </Box>
            ) : null}
          </Box>
        );
      }}
    </RoomFrame>
  );
}
