/**
 * The "Talk" tab of a /talk channel page: who is talking now, the big hold-to-talk button, what was missed,
 * the talk key, asking for dispatch, and the two switches of a phone in the field (share my position, keep the
 * screen on). The SOS is in the layout's dock, always on screen (issue 70).
 */
import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { DispatchRequestCard, type DispatchRequestHandle } from '../../engines/dispatch-request/index.ts';
import { ChannelAlertList, type useChannelAlerts } from '../../engines/emergency/index.ts';
import type { RoomChannel, useRoom } from '../../engines/room/index.ts';
import { ChannelLiveVideos, type VideoShare, VideoShareCard } from '../../engines/video/index.ts';
import { MediaProblemAlert, PushToTalkButton, RecordedMark, VoiceLinkStatus } from '../../engines/voice/index.ts';
import { BusyNotice, PlayMissedButton, type useMissed } from './missed.tsx';
import { SecureContextHint } from './PlatformHints.tsx';
import { ScanHeard } from './scan.tsx';
import { TalkKeyControl } from './TalkKeyControl.tsx';
import type { usePositionSharing } from './usePositionSharing.ts';
import type { useTalkChannelVoice } from './useTalkChannelVoice.ts';
import type { useTalkKey } from './useTalkKey.ts';
import type { useWakeLock } from './useWakeLock.ts';

type Room = ReturnType<typeof useRoom>;

export interface TalkPanelProps {
  room: Room;
  channel: RoomChannel;
  voice: ReturnType<typeof useTalkChannelVoice>;
  missed: ReturnType<typeof useMissed>;
  talkKey: ReturnType<typeof useTalkKey>;
  alerts: ReturnType<typeof useChannelAlerts>;
  position: ReturnType<typeof usePositionSharing>;
  wakeLock: ReturnType<typeof useWakeLock>;
  /** The member's dispatch request here, followed by the page (its other tabs show it too). */
  dispatchRequest: DispatchRequestHandle;
  /** Issue 61: the member's live video from this channel. */
  video: VideoShare;
}

export function TalkPanel({
  room,
  channel,
  voice,
  missed,
  talkKey,
  alerts,
  position,
  wakeLock,
  dispatchRequest,
  video,
}: TalkPanelProps) {
  const { t: tRoom } = useTranslation('room');
  const { state } = room.voice;
  return (
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
          color: voice.anyoneTalking ? 'error.main' : 'text.primary',
        }}
      >
        {voice.talkingNow}
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
          micOn={voice.micOn}
          heldBy={voice.heldBy}
          wait={voice.wait}
          onCancelWait={voice.cancelWait}
          disabled={!voice.canPress}
          onChange={voice.talk}
          size={184}
          label={voice.replyLabel}
          idleText={voice.replyLabel}
        />
      </Box>
      {room.listenOnly ? (
        <Typography variant="body2" role="status" sx={{ color: 'text.secondary', textAlign: 'center' }}>
          {tRoom('ptt.listenOnly')}
        </Typography>
      ) : null}
      <VideoShareCard share={video} />
      {/* Where the channel's videoAudience is 'channel', its members watch its live videos here. */}
      <ChannelLiveVideos channel={channel} />
      <DispatchRequestCard channelId={channel.id} channelName={channel.name} dispatchRequest={dispatchRequest} />
      <TalkKeyControl talkKey={talkKey} />
      <ChannelAlertList alerts={alerts.others} />
      <FieldSwitches position={position} wakeLock={wakeLock} retentionDays={room.config?.positionRetentionDays} />
    </Box>
  );
}

/** Share my position (with its status and how long positions are kept) and keep the screen on. */
function FieldSwitches({
  position,
  wakeLock,
  retentionDays,
}: {
  position: ReturnType<typeof usePositionSharing>;
  wakeLock: ReturnType<typeof useWakeLock>;
  /** Undefined until the client's configuration is known. */
  retentionDays: number | undefined;
}) {
  const { t } = useTranslation('talk');
  return (
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
      {retentionDays !== undefined ? (
        <Typography variant="body2" sx={{ color: 'text.secondary', pl: 1, mt: 0.5 }}>
          {t('position.kept', { days: retentionDays })}
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
  );
}
