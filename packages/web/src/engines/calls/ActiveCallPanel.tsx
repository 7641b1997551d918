/**
 * An answered private call (issue 27): both parties in the call's hidden channel on the page's one socket, a
 * voice room of its own (push-to-talk: "Talk to {name}"), who talks now, and Hang up. Its transmissions are
 * recorded into that channel's voice history, which both parties may read. Not modal: a desk keeps working.
 */
import CallEndIcon from '@mui/icons-material/CallEnd';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { PrivateCall } from '@talkgroup/protocol';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useSharedSocket } from '../../api/serverEvents.ts';
import { getToken } from '../../api/session.ts';
import { useClientConfig } from '../../api/useClientConfig.ts';
import { MediaProblemAlert, PushToTalkButton, useTransmissionRecorder, useVoiceRoom } from '../voice/index.ts';
import { hangUp } from './callState.ts';

export interface ActiveCallPanelProps {
  call: PrivateCall;
  self: { id: number; name: string };
  fullScreen: boolean;
}

export default function ActiveCallPanel({ call, self, fullScreen }: ActiveCallPanelProps) {
  const { t } = useTranslation('calls');
  const { socket } = useSharedSocket();
  const config = useClientConfig();
  const other = call.caller.userId === self.id ? call.callee.name : call.caller.name;
  const recorder = useTransmissionRecorder({
    channelId: call.channelId || undefined,
    recording: true,
    userId: self.id,
    token: getToken() ?? undefined,
    socket,
  });
  const { engine, state } = useVoiceRoom({
    socket,
    enabled: config.data !== undefined,
    room: call.room,
    name: self.name,
    mode: 'talk',
    iceServers: config.data?.iceServers ?? [],
    recorder,
  });
  const talk = useCallback((on: boolean) => engine?.setMicEnabled(on), [engine]);
  const talker = state.peers.find((peer) => peer.talking);
  const status = state.micOn
    ? t('active.youTalk')
    : talker
      ? t('active.talking', { name: talker.name || other })
      : state.floorHolder
        ? t('active.talking', { name: state.floorHolder })
        : state.joined
          ? t('active.quiet')
          : t('active.connecting');

  return (
    <Paper
      component="section"
      aria-label={t('active.region', { name: other })}
      elevation={12}
      sx={{
        position: 'fixed',
        zIndex: 1500,
        right: fullScreen ? 0 : 24,
        left: fullScreen ? 0 : 'auto',
        // On /talk, above the dock that holds the SOS (issue 70: nothing covers it); 0 elsewhere.
        bottom: fullScreen ? 'var(--talk-dock-height, 0px)' : 24,
        width: fullScreen ? '100%' : 340,
        p: 2.5,
        borderRadius: fullScreen ? '16px 16px 0 0' : 3,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        gap: 1.5,
      }}
    >
      <Typography component="h2" variant="h6" sx={{ fontWeight: 700, textAlign: 'center' }}>
        {t('active.title', { name: other })}
      </Typography>
      {state.mediaProblem ? <MediaProblemAlert problem={state.mediaProblem} /> : null}
      <PushToTalkButton
        micOn={state.micOn}
        heldBy={state.floorHolder}
        disabled={!state.micReady || !state.joined}
        onChange={talk}
        size={fullScreen ? 140 : 96}
        spaceBar={false}
        compact
        label={t('active.talk', { name: other })}
      />
      <Typography role="status" aria-label={t('active.status')} sx={{ fontWeight: 600 }}>
        {status}
      </Typography>
      <Box>
        <Button variant="contained" color="error" startIcon={<CallEndIcon />} onClick={() => void hangUp()}>
          {t('active.hangUp')}
        </Button>
      </Box>
    </Paper>
  );
}
