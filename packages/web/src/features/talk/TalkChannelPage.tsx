/**
 * /talk/:channelId, a channel on a phone held in one hand: the big hold-to-talk button, who is talking
 * now, the members and their state, the chat (photos from the camera too) and, with mapRight, the map.
 * The voice is the channel's room (its rtcSession), the same as the console's group call view, so members
 * and administrators hear each other. The microphone opens once on entry and a press only enables its track.
 * The member's other channels are heard too (scan.tsx): a press just after one of their transmissions answers
 * there ("Reply on Atelier").
 */
import ChatIcon from '@mui/icons-material/ChatBubbleOutlineOutlined';
import GroupIcon from '@mui/icons-material/GroupOutlined';
import MapIcon from '@mui/icons-material/MapOutlined';
import MyLocationIcon from '@mui/icons-material/MyLocation';
import RecordVoiceOverIcon from '@mui/icons-material/RecordVoiceOver';
import Alert from '@mui/material/Alert';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { GetMyChannels } from '@talkgroup/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { useApiQuery } from '../../api/queries.ts';
import { usePageTitle } from '../../components/PageHeader.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { useActivitySentence } from '../../engines/activities/index.ts';
import { ChannelAlertList, SosButton, useChannelAlerts } from '../../engines/emergency/index.ts';
import { RoomMapSection } from '../../engines/map/index.ts';
import { type ChannelMember, ChatPanel, type RoomChannel, RoomFrame, useRoom } from '../../engines/room/index.ts';
import { MediaProblemAlert, PushToTalkButton, RecordedMark, VoiceLinkStatus } from '../../engines/voice/index.ts';
import { markMessagesSeen } from './chatSeen.ts';
import { BusyNotice, PlayMissedButton, useMissed } from './missed.tsx';
import { SecureContextHint } from './PlatformHints.tsx';
import { ScanHeard, useScan } from './scan.tsx';
import { TalkKeyControl } from './TalkKeyControl.tsx';
import { TalkMembersList } from './TalkMembersList.tsx';
import { TalkTopBar } from './TalkTopBar.tsx';
import { useMediaSession } from './useMediaSession.ts';
import { usePositionSharing } from './usePositionSharing.ts';
import { useTalkKey } from './useTalkKey.ts';
import { useWakeLock } from './useWakeLock.ts';

type TalkTab = 'talk' | 'chat' | 'members' | 'map';

/** Read by screen readers, not shown (the badge shows the count). */
const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

export default function TalkChannelPage() {
  const { t } = useTranslation('talk');
  const { channelId } = useParams();
  const id = Number(channelId);
  // A member's own channels; an administrator finds here the channels it belongs to as well.
  const channels = useApiQuery(GetMyChannels, {});
  const channel = channels.data?.res.find((candidate) => candidate.id === id);
  usePageTitle(channel?.name ?? t('channel.title'));

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
  const { t: tRoom } = useTranslation('room');
  const { voice, chat, members } = room;
  const { state } = voice;
  const [tab, setTab] = useState<TalkTab>('talk');
  const live = room.connected && state.joined;
  const canTalk = state.micReady && state.joined && !room.listenOnly;

  const seen = useRef(chat.messages.length);
  if (tab === 'chat') seen.current = chat.messages.length;
  const newestId = chat.messages.reduce((newest, message) => Math.max(newest, message.id), 0);
  useEffect(() => {
    if (tab === 'chat' && newestId) markMessagesSeen(channel.id, newestId);
  }, [tab, newestId, channel.id]);
  const unread = tab === 'chat' ? 0 : Math.max(0, chat.messages.length - seen.current);

  const scan = useScan();
  const scanRef = useRef(scan);
  scanRef.current = scan;
  /** Where the press being held talks: a scanned channel (talk-back), or null: this one. */
  const talkingBackOn = useRef<number | null>(null);
  const talk = useCallback(
    (on: boolean) => {
      if (!on && talkingBackOn.current !== null) {
        scanRef.current.talk(talkingBackOn.current, false);
        talkingBackOn.current = null;
        return;
      }
      // Within a moment of another channel's transmission, a press answers there (talk-back).
      const reply = on ? scanRef.current.replyTo : null;
      if (reply && scanRef.current.talk(reply.channelId, true)) {
        talkingBackOn.current = reply.channelId;
        return;
      }
      if (!canTalk && on) return;
      voice.engine?.setMicEnabled(on);
    },
    [canTalk, voice.engine],
  );
  const talkKey = useTalkKey(talk);
  // One read gives both the status and this channel's missed list.
  const missed = useMissed(channel.id);
  const position = usePositionSharing(room.socket, room.connected);
  const wakeLock = useWakeLock();
  const alerts = useChannelAlerts(room.socket, room.me?.id);

  const describe = useActivitySentence();
  const describeActivity = useCallback(
    (member: ChannelMember) => describe(member.lastActivity, { withDate: true }),
    [describe],
  );

  const talkers = state.peers.filter((peer) => peer.talking).map((peer) => peer.name || t('channel.unnamed'));
  // A transmission on this channel after another channel's: a press talks here again.
  const talkedHere = talkers.length > 0 || state.micOn;
  const { endTalkBack } = scan;
  useEffect(() => {
    if (talkedHere) endTalkBack();
  }, [talkedHere, endTalkBack]);
  const micOn = state.micOn || scan.talkingOn !== null;
  const heardElsewhere = scan.heard.map((entry) => `${entry.name} · ${entry.talkers.join(', ')}`).join(' / ');
  // The lock screen and the system's media controls name the channel and who is talking now.
  useMediaSession({
    title: channel.name,
    artist: micOn ? t('channel.youAreTalking') : talkers.length ? talkers.join(', ') : heardElsewhere || 'Talkgroup',
    talking: micOn,
    onTalk: talk,
  });
  const replyLabel = scan.replyTo ? t('scan.replyOn', { channel: scan.replyTo.name }) : undefined;
  const talkingNow = micOn
    ? t('channel.youAreTalking')
    : talkers.length
      ? t('channel.talkingNow', { names: talkers.join(', ') })
      : t('channel.nobodyTalking');

  return (
    <Box sx={{ height: '100dvh', display: 'flex', flexDirection: 'column' }}>
      <TalkTopBar
        title={channel.name}
        back={{ to: '/talk', label: t('channel.back') }}
        end={
          <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center', flexShrink: 0 }}>
            {position.status === 'sharing' ? (
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
        }
      />
      <Tabs
        value={tab}
        onChange={(_event, value: TalkTab) => setTab(value)}
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
        {room.canSeeMap ? <Tab value="map" icon={<MapIcon />} iconPosition="top" label={t('tabs.map')} /> : null}
      </Tabs>

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
          <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 1.5 }}>
            <SecureContextHint />
            <MediaProblemAlert problem={state.mediaProblem} />
            <VoiceLinkStatus transport={state.transport} problem={state.linkProblem} />
            <Typography
              role="status"
              aria-live="polite"
              data-testid="talking-now"
              sx={{
                fontWeight: 700,
                fontSize: '1.15rem',
                textAlign: 'center',
                minHeight: 32,
                color: micOn || talkers.length ? 'error.main' : 'text.primary',
              }}
            >
              {talkingNow}
            </Typography>
            <ScanHeard />
            <BusyNotice busy={missed.busy} room={channel.rtcSession} />
            <PlayMissedButton list={missed.list} />
            {channel.recording ? (
              <Box sx={{ display: 'flex', justifyContent: 'center' }}>
                <RecordedMark />
              </Box>
            ) : null}
            <Box sx={{ display: 'flex', justifyContent: 'center', py: 1 }}>
              <PushToTalkButton
                micOn={micOn}
                heldBy={scan.replyTo ? null : state.floorHolder}
                disabled={!canTalk && !scan.replyTo}
                onChange={talk}
                size={184}
                label={replyLabel}
                idleText={replyLabel}
              />
            </Box>
            {room.listenOnly ? (
              <Typography variant="body2" role="status" sx={{ color: 'text.secondary', textAlign: 'center' }}>
                {tRoom('ptt.listenOnly')}
              </Typography>
            ) : null}
            <TalkKeyControl talkKey={talkKey} />
            <ChannelAlertList alerts={alerts.others} />
            <Box sx={{ display: 'flex', justifyContent: 'center' }}>
              <SosButton channelId={channel.id} acknowledgedBy={alerts.ownTaken} />
            </Box>
            <Box sx={{ display: 'flex', flexDirection: 'column' }}>
              <FormControlLabel
                sx={{ minHeight: 48, mr: 0 }}
                control={
                  <Switch
                    checked={position.enabled}
                    disabled={!position.supported}
                    onChange={(event) => position.setSharing(event.target.checked)}
                  />
                }
                label={t('position.share')}
              />
              <Typography variant="body2" role="status" sx={{ color: 'text.secondary', pl: 1, mt: -0.5 }}>
                {t(`position.status.${position.status}`)}
              </Typography>
              {room.config ? (
                <Typography variant="body2" sx={{ color: 'text.secondary', pl: 1, mt: 0.5 }}>
                  {t('position.kept', { days: room.config.positionRetentionDays })}
                </Typography>
              ) : null}
              <FormControlLabel
                sx={{ minHeight: 48, mr: 0 }}
                control={
                  <Switch
                    checked={wakeLock.keepAwake}
                    disabled={!wakeLock.supported}
                    onChange={(event) => wakeLock.setKeepAwake(event.target.checked)}
                  />
                }
                label={t('wakeLock.label')}
              />
            </Box>
          </Box>
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
        <Box
          sx={{
            py: 1,
            display: 'flex',
            justifyContent: 'center',
            borderTop: '1px solid',
            borderColor: 'divider',
            bgcolor: 'background.paper',
            pb: 'calc(8px + env(safe-area-inset-bottom))',
          }}
        >
          <PushToTalkButton
            micOn={micOn}
            disabled={!canTalk && !scan.replyTo}
            onChange={talk}
            size={88}
            compact
            label={replyLabel}
          />
        </Box>
      ) : null}
    </Box>
  );
}
