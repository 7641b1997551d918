/**
 * The channel room, /groupCallView/:roomId (spec sections 2 and 4): press-to-talk voice with the
 * participants grid, the messaging panel (a right drawer of 420px, or a column from 1480px), the members'
 * map with the channel users table, and the sidebar's 'Users in {channel}' section.
 */
import ChatIcon from '@mui/icons-material/ChatBubbleOutlineOutlined';
import TuneIcon from '@mui/icons-material/Tune';
import Alert from '@mui/material/Alert';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Drawer from '@mui/material/Drawer';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Popover from '@mui/material/Popover';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  CHAT_DRAWER_WIDTH,
  channelNumber,
  displayNameOf,
  SetChannelMemberRights,
  WIDE_LAYOUT_MIN_WIDTH,
} from '@talkgroup/protocol';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { api, errorMessage } from '../../api/client.ts';
import { useMay } from '../../api/session.ts';
import { useChosen } from '../../api/useChosen.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { usePageTitle } from '../../components/PageHeader.tsx';
import { useActivitySentence } from '../../engines/activities/index.ts';
import { DispatchRequestControl } from '../../engines/dispatch-request/index.ts';
import { SosButton } from '../../engines/emergency/index.ts';
import { RoomMapSection } from '../../engines/map/RoomMapSection.tsx';
import { ChatPanel } from '../../engines/room/chat/ChatPanel.tsx';
import { UsersInChannelSection } from '../../engines/room/members/UsersInChannelSection.tsx';
import type { ChannelMember } from '../../engines/room/members/useChannelMembers.ts';
import { RoomFrame } from '../../engines/room/RoomFrame.tsx';
import { useRoom } from '../../engines/room/useRoom.ts';
import {
  FloorQueueList,
  MediaProblemAlert,
  PushToTalkButton,
  useFloorQueue,
  VoiceLinkStatus,
} from '../../engines/voice/index.ts';
import { ListeningPanel } from './listening/ListeningPanel.tsx';
import { ParticipantsGrid } from './participants/ParticipantsGrid.tsx';
import { SearchUserDialog } from './SearchUserDialog.tsx';

/** Counts the messages that arrived while the panel was closed. */
/** From this width the open chat is a column beside the room (issue 17 point 8); narrower below WIDE_LAYOUT_MIN_WIDTH. */
const CHAT_COLUMN_MIN_WIDTH = 1280;
const CHAT_COLUMN_NARROW_WIDTH = 360;

function useUnread(count: number, open: boolean): number {
  const seen = useRef(count);
  if (open) seen.current = count;
  return open ? 0 : Math.max(0, count - seen.current);
}

/*
 * A press shows its talker on every other page of the room within a frame or two (issue 18: press to
 * talking indicator). The voice room's state changes at each press, and the whole page is drawn again:
 * what does not depend on it is memoized, so that the redraw is the participants and little else.
 */
const Sos = memo(SosButton);
const UsersInChannel = memo(UsersInChannelSection);

const RoomHeader = memo(function RoomHeader({
  channelName,
  number,
  live,
  chatOpen,
  unread,
  onToggleChat,
  voiceProcessing,
  onVoiceProcessing,
}: {
  channelName: string;
  /** The number a SIP gateway dials to enter the channel (issue 51); null for a channel that stays peer to peer. */
  number: string | null;
  live: boolean;
  chatOpen: boolean;
  unread: number;
  onToggleChat: () => void;
  voiceProcessing: boolean;
  onVoiceProcessing: (on: boolean) => void;
}) {
  const { t } = useTranslation('room');
  const [settingsAnchor, setSettingsAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Box component="header" sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
          <Typography variant="overline" sx={{ color: 'text.secondary', lineHeight: 1.4 }}>
            {t('groupCall.title')}
          </Typography>
          <Typography component="h1" variant="h1" sx={{ overflowWrap: 'anywhere' }}>
            {channelName}
          </Typography>
          {number !== null ? (
            <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
              {t('groupCall.number', { number })}
            </Typography>
          ) : null}
        </Box>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Chip
            size="small"
            color={live ? 'success' : 'default'}
            variant={live ? 'filled' : 'outlined'}
            label={live ? t('groupCall.connected') : t('groupCall.connecting')}
          />
          <Tooltip title={t('settings.title')}>
            <IconButton onClick={(event) => setSettingsAnchor(event.currentTarget)} aria-label={t('settings.title')}>
              <TuneIcon />
            </IconButton>
          </Tooltip>
          <Button
            variant={chatOpen ? 'contained' : 'outlined'}
            onClick={onToggleChat}
            aria-pressed={chatOpen}
            startIcon={
              <Badge color="secondary" badgeContent={unread} max={99}>
                <ChatIcon />
              </Badge>
            }
          >
            {chatOpen ? t('chat.hide') : t('chat.show')}
          </Button>
        </Box>
      </Box>

      <Popover
        open={settingsAnchor !== null}
        anchorEl={settingsAnchor}
        onClose={() => setSettingsAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <Box sx={{ p: 2, maxWidth: 320 }}>
          <FormControlLabel
            control={<Switch checked={voiceProcessing} onChange={(event) => onVoiceProcessing(event.target.checked)} />}
            label={t('settings.voiceProcessing')}
          />
          <Typography variant="caption" component="p" sx={{ color: 'text.secondary', mt: 0.5 }}>
            {t('settings.voiceProcessingHelp')}
          </Typography>
        </Box>
      </Popover>
    </>
  );
});

export default function GroupCallPage() {
  const { t } = useTranslation('room');
  const { roomId } = useParams();
  const room = useRoom(roomId);
  const { channel, voice, chat, members } = room;
  const wide = useMediaQuery(`(min-width:${WIDE_LAYOUT_MIN_WIDTH}px)`, { noSsr: true });
  // Issue 17: from 1280 px (the common laptops) the open chat is a column beside the room, not a modal drawer
  // over it, so push-to-talk stays in reach; narrower below the wide layout.
  const chatColumn = useMediaQuery(`(min-width:${CHAT_COLUMN_MIN_WIDTH}px)`, { noSsr: true });
  const [chatOpen, setChatOpen] = useState(wide);
  const [manageOpen, setManageOpen] = useState(false);
  const toggleChat = useCallback(() => setChatOpen((open) => !open), []);
  const manage = useCallback(() => setManageOpen(true), []);
  const engine = voice.engine;
  const talk = useCallback((on: boolean) => engine?.setMicEnabled(on), [engine]);
  // Issue 59: who waits for the floor; a dispatcher or administrator may take one out of the queue.
  const floorQueue = useFloorQueue(room.socket, channel?.rtcSession);
  const mayRemoveFromQueue = useMay().somewhere('channel.dispatch');
  const describe = useActivitySentence();
  const describeActivity = useCallback(
    (member: ChannelMember) => describe(member.lastActivity, { withDate: true }),
    [describe],
  );
  const unread = useUnread(chat.messages.length, chatOpen);
  const notify = useNotify();
  const channelId = channel?.id;
  const refreshMembers = members.refresh;
  // The switch shows the choice at once; a refusal puts it back and says why.
  const canTalkChosen = useChosen<number, boolean>();
  const chooseCanTalk = canTalkChosen.choose;
  const setCanTalk = useCallback(
    (member: ChannelMember, canTalk: boolean) => {
      if (channelId === undefined) return;
      void chooseCanTalk(member.user.id, canTalk, () =>
        api(SetChannelMemberRights, { channelId, userId: member.user.id, canTalk }).then(() => refreshMembers()),
      ).catch((error) => notify({ severity: 'error', message: errorMessage(error, t('members.rightsFailed')) }));
    },
    [channelId, refreshMembers, notify, t, chooseCanTalk],
  );
  const otherChannels = useMemo(
    () => room.otherChannels.filter((other) => other.id !== channelId),
    [room.otherChannels, channelId],
  );
  usePageTitle(channel?.name ?? t('groupCall.title'));

  // Crossing the 1480px line switches between the column (open) and the drawer (closed).
  useEffect(() => setChatOpen(wide), [wide]);

  return (
    <RoomFrame room={room} basePath="/groupCallView/" inShell>
      {(channel) => {
        const { state } = voice;
        const talking = state.peers.filter((peer) => peer.talking);
        const chatPanel = (
          <ChatPanel chat={chat} userId={room.me?.id} channelName={channel.name} onClose={() => setChatOpen(false)} />
        );

        return (
          <Box sx={{ display: 'flex', gap: 3, alignItems: 'flex-start' }}>
            <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 2.5 }}>
              <RoomHeader
                channelName={channel.name}
                // Only where a gateway can dial it: a server channel whose voice goes through the media server
                // (issue 58: a room gone peer to peer shows none).
                number={state.transport === 'server' ? channelNumber(channel) : null}
                live={room.connected && state.joined}
                chatOpen={chatOpen}
                unread={unread}
                onToggleChat={toggleChat}
                voiceProcessing={room.voiceProcessing}
                onVoiceProcessing={room.setVoiceProcessing}
              />

              {room.configError ? (
                <Alert severity="error">{errorMessage(room.configError, t('groupCall.configFailed'))}</Alert>
              ) : null}

              <Paper
                component="section"
                aria-label={t('voice.title')}
                variant="outlined"
                sx={{
                  p: { xs: 2, sm: 2.5 },
                  borderRadius: 3,
                  display: 'grid',
                  gap: 3,
                  gridTemplateColumns: { xs: '1fr', md: '240px minmax(0, 1fr)' },
                  alignItems: 'start',
                }}
              >
                <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, pt: 1 }}>
                  <PushToTalkButton
                    micOn={state.micOn}
                    heldBy={state.floorHolder}
                    wait={state.floorWait}
                    onCancelWait={engine?.cancelFloorQueue}
                    disabled={!state.micReady || !state.joined || room.listenOnly}
                    onChange={talk}
                  />
                  {room.listenOnly ? (
                    <Typography variant="body2" role="status" sx={{ color: 'text.secondary', textAlign: 'center' }}>
                      {t('ptt.listenOnly')}
                    </Typography>
                  ) : null}
                  <FloorQueueList
                    queue={floorQueue.queue}
                    onRemove={mayRemoveFromQueue ? floorQueue.remove : undefined}
                  />
                  <MediaProblemAlert problem={state.mediaProblem} />
                  <VoiceLinkStatus transport={state.transport} problem={state.linkProblem} />
                  <Sos channelId={channel.id} size={56} />
                  <DispatchRequestControl channelId={channel.id} channelName={channel.name} />
                </Box>
                <Box sx={{ minWidth: 0 }}>
                  <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, mb: 1.5, flexWrap: 'wrap' }}>
                    <Typography component="h2" variant="h5">
                      {t('participants.title')}
                    </Typography>
                    {state.peers.length > 0 ? (
                      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                        {t('participants.count', { count: state.peers.length })}
                      </Typography>
                    ) : null}
                    <Typography
                      variant="body2"
                      sx={{ ml: 'auto', fontWeight: 600, color: 'success.main' }}
                      aria-live="polite"
                    >
                      {talking.length > 0
                        ? t('participants.talkingNow', { names: talking.map((peer) => peer.name).join(', ') })
                        : ''}
                    </Typography>
                  </Box>
                  <ParticipantsGrid peers={state.peers} />
                </Box>
              </Paper>

              <ListeningPanel
                socket={room.socket}
                channels={otherChannels}
                name={room.me ? displayNameOf(room.me) : ''}
                iceServers={room.config?.iceServers}
                iceTransportPolicy={room.config?.iceTransportPolicy}
              />

              {room.canSeeMap ? (
                <RoomMapSection
                  members={members.members}
                  isLoading={members.isLoading}
                  config={room.config}
                  describeActivity={describeActivity}
                  channel={channel ? { id: channel.id, name: channel.name } : undefined}
                />
              ) : null}
            </Box>

            {chatColumn ? (
              chatOpen ? (
                <Paper
                  variant="outlined"
                  sx={{
                    width: wide ? CHAT_DRAWER_WIDTH : CHAT_COLUMN_NARROW_WIDTH,
                    flexShrink: 0,
                    position: 'sticky',
                    top: 88,
                    height: 'calc(100dvh - 112px)',
                    overflow: 'hidden',
                    borderRadius: 3,
                  }}
                >
                  {chatPanel}
                </Paper>
              ) : null
            ) : (
              <Drawer
                anchor="right"
                open={chatOpen}
                onClose={() => setChatOpen(false)}
                ModalProps={{ keepMounted: true }}
                slotProps={{ paper: { 'aria-label': t('chat.title') } }}
                sx={{ '& .MuiDrawer-paper': { width: { xs: '100%', sm: CHAT_DRAWER_WIDTH }, maxWidth: '100vw' } }}
              >
                {chatPanel}
              </Drawer>
            )}

            <UsersInChannel
              channelName={channel.name}
              members={members.members.map((member) => ({
                ...member,
                canTalk: canTalkChosen.shown(member.user.id, member.canTalk),
              }))}
              onManage={room.manageChannels ? manage : undefined}
              onSetCanTalk={room.manageChannels ? setCanTalk : undefined}
            />
            {room.manageChannels ? (
              <SearchUserDialog open={manageOpen} channel={channel} onClose={() => setManageOpen(false)} />
            ) : null}
          </Box>
        );
      }}
    </RoomFrame>
  );
}
