/**
 * /talk/:channelId, a channel on a phone held in one hand: the big hold-to-talk button, who is talking
 * now, the members and their state, the chat (photos from the camera too) and, with mapRight, the map.
 * The voice is the channel's room (its rtcSession), the same as the console's group call view, so members
 * and administrators hear each other. The microphone opens once on entry and a press only enables its track.
 * The member's other channels are heard too (scan.tsx): a press just after one of their transmissions answers
 * there ("Reply on Atelier").
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { GetMyChannels } from '@talkgroup/protocol';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { useApiQuery } from '../../api/queries.ts';
import { usePageTitle } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { useActivitySentence } from '../../engines/activities/index.ts';
import {
  type DispatchRequestHandle,
  DispatchRequestLine,
  useDispatchRequest,
} from '../../engines/dispatch-request/index.ts';
import { useChannelAlerts } from '../../engines/emergency/index.ts';
import { RoomMapSection } from '../../engines/map/index.ts';
import { type ChannelMember, ChatPanel, type RoomChannel, RoomFrame, useRoom } from '../../engines/room/index.ts';
import { WatchedBanner } from '../../engines/video/index.ts';
import { PushToTalkButton } from '../../engines/voice/index.ts';
import { useMissed } from './missed.tsx';
import { useSelectedChannelReport } from './SelectedChannelFollower.tsx';
import { TalkChannelStatus, TalkChannelTabs, type TalkTab, useUnreadChat } from './TalkChannelTabs.tsx';
import { TalkMembersList } from './TalkMembersList.tsx';
import { TalkPanel } from './TalkPanel.tsx';
import { TalkTopBar } from './TalkTopBar.tsx';
import { usePositionSharing } from './usePositionSharing.ts';
import { useTalkChannelVoice } from './useTalkChannelVoice.ts';
import { useTalkKey } from './useTalkKey.ts';
import { useTalkVideo } from './useTalkVideo.ts';
import { useWakeLock } from './useWakeLock.ts';

export default function TalkChannelPage() {
  const { t } = useTranslation('talk');
  const { channelId } = useParams();
  const id = Number(channelId);
  // A member's own channels; an administrator finds here the channels it belongs to as well.
  const channels = useApiQuery(GetMyChannels, {});
  const channel = channels.data?.res.find((candidate) => candidate.id === id);
  usePageTitle(channel?.name ?? t('channel.title'));
  useSelectedChannelReport(channel?.id);

  if (channels.isLoading) return <PageLoader fullScreen />;
  if (!channel) {
    return (
      <>
        <TalkTopBar title={t('channel.title')} back={{ to: '/talk', label: t('channel.back') }} />
        <Box component="main" sx={{ p: 2 }}>
          <Alert severity="error">
            {channels.error ? errorMessage(channels.error, t('home.loadFailed')) : t('channel.notFound')}
          </Alert>
        </Box>
      </>
    );
  }
  return <TalkChannel key={channel.id} rtcSession={channel.rtcSession} />;
}

function TalkChannel({ rtcSession }: { rtcSession: string }) {
  const room = useRoom(rtcSession);
  return (
    <RoomFrame room={room} basePath="/talk/">
      {(channel) => <TalkChannelView room={room} channel={channel} />}
    </RoomFrame>
  );
}

function TalkChannelView({ room, channel }: { room: ReturnType<typeof useRoom>; channel: RoomChannel }) {
  const { t } = useTranslation('talk');
  const { voice, chat, members } = room;
  const { state } = voice;
  const [tab, setTab] = useState<TalkTab>('talk');
  const unread = useUnreadChat(chat.messages, tab, channel.id);
  const talkVoice = useTalkChannelVoice(room, channel);
  // The talk key, position sharing, the screen lock and the alerts work whichever tab is shown.
  const talkKey = useTalkKey(talkVoice.talk);
  // One read gives both the status and this channel's missed list.
  const missed = useMissed(channel.id);
  const position = usePositionSharing(room.socket, room.connected);
  const wakeLock = useWakeLock();
  const alerts = useChannelAlerts(room.socket, room.me?.id);
  const dispatchRequest = useDispatchRequest(channel.id);
  // Issue 61: the live video outlives a change of tab; its banner shows on every tab.
  const video = useTalkVideo(room, channel);
  const describe = useActivitySentence();
  const describeActivity = useCallback(
    (member: ChannelMember) => describe(member.lastActivity, { withDate: true }),
    [describe],
  );

  return (
    // The layout's page area, above its dock (issue 70): the tab scrolls, the bars stay.
    <Box sx={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
      <TalkTopBar
        title={channel.name}
        back={{ to: '/talk', label: t('channel.back') }}
        end={
          <TalkChannelStatus sharingPosition={position.status === 'sharing'} live={room.connected && state.joined} />
        }
      />
      <WatchedBanner share={video} />
      <TalkChannelTabs tab={tab} onChange={setTab} unread={unread} canSeeMap={room.canSeeMap} />
      <Box
        component="main"
        sx={{
          flex: 1,
          minHeight: 0,
          overflowY: tab === 'chat' ? 'hidden' : 'auto',
          display: 'flex',
          flexDirection: 'column',
        }}
      >
        {tab === 'talk' ? (
          <TalkPanel
            room={room}
            channel={channel}
            voice={talkVoice}
            missed={missed}
            talkKey={talkKey}
            alerts={alerts}
            position={position}
            wakeLock={wakeLock}
            dispatchRequest={dispatchRequest}
            video={video}
          />
        ) : null}
        {tab === 'chat' ? (
          <ChatPanel chat={chat} userId={room.me?.id} channelName={channel.name} showHeader={false} />
        ) : null}
        {tab === 'members' ? (
          <TalkMembersList
            members={members.members}
            peers={state.peers}
            isLoading={members.isLoading}
            selfId={room.me?.id}
            selfTalking={state.micOn}
          />
        ) : null}
        {tab === 'map' && room.canSeeMap ? (
          <Box sx={{ p: 1 }}>
            <RoomMapSection
              members={members.members}
              isLoading={members.isLoading}
              config={room.config}
              describeActivity={describeActivity}
              channel={{ id: channel.id, name: channel.name }}
            />
          </Box>
        ) : null}
      </Box>
      {tab === 'members' || tab === 'map' ? (
        <CompactTalkBar voice={talkVoice} dispatchRequest={dispatchRequest} />
      ) : null}
    </Box>
  );
}

/**
 * Under the members and the map: a smaller hold-to-talk button, so a member talks without going back, and where
 * its dispatch request stands.
 */
function CompactTalkBar({
  voice,
  dispatchRequest,
}: {
  voice: ReturnType<typeof useTalkChannelVoice>;
  dispatchRequest: DispatchRequestHandle;
}) {
  return (
    <Box
      sx={{
        py: 1,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        gap: 0.5,
        borderTop: '1px solid',
        borderColor: 'divider',
        bgcolor: 'background.paper',
        pb: 'calc(8px + env(safe-area-inset-bottom))',
      }}
    >
      <PushToTalkButton
        micOn={voice.micOn}
        disabled={!voice.canPress}
        onChange={voice.talk}
        size={88}
        compact
        label={voice.replyLabel}
      />
      <DispatchRequestLine dispatchRequest={dispatchRequest} />
    </Box>
  );
}
