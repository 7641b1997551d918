/**
 * All call: held, it talks on every checked tile (all of them when none is checked). One broadcast_request
 * takes each channel's floor (a dispatcher preempts members); the channels granted hear the page's microphone,
 * the others are named with why (someone of higher priority talks, listening only). Released, the floors go
 * back (broadcast_release). A release before the answer gives back whatever the answer granted. On the mesh the
 * page records the call once, from the first granted channel that can record it, and the server keeps it in each
 * (the media server does the same with what it receives).
 */
import CampaignIcon from '@mui/icons-material/Campaign';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import type { BroadcastAnswer } from '@talkgroup/protocol';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TalkgroupSocket } from '../../api/socket.ts';
import type { VoiceRoom } from '../../engines/voice/index.ts';

const ANSWER_WITHIN_MS = 5000;

export interface AllCallButtonProps {
  socket: TalkgroupSocket | null;
  /** The rooms to talk in, with their channels' names (the refusals name them) and ids. */
  targets: () => Array<{ room: string; name: string; channelId: number }>;
  engineOf: (room: string) => VoiceRoom | undefined;
  /** Issue 70: no tile, nobody to call: the button says so by being disabled. */
  disabled?: boolean;
}

function request(socket: TalkgroupSocket, rooms: string[]): Promise<BroadcastAnswer | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), ANSWER_WITHIN_MS);
    socket.emit('broadcast_request', { rooms }, (answer) => {
      clearTimeout(timer);
      resolve('granted' in answer ? answer : null);
    });
  });
}

export function AllCallButton({ socket, targets, engineOf, disabled = false }: AllCallButtonProps) {
  const { t } = useTranslation('dispatch');
  const [onAir, setOnAir] = useState(false);
  const [report, setReport] = useState('');
  const held = useRef(false);
  const granted = useRef<string[]>([]);

  const stop = (rooms: string[]) => {
    for (const room of rooms) engineOf(room)?.setBroadcasting(false);
    if (rooms.length > 0 && socket?.connected) socket.emit('broadcast_release', { rooms });
  };

  /**
   * One recording of the call (issue 37), kept in every granted channel: made by the first granted room that can
   * record it (its microphone ready, the channel recording), not only by the first one; the others record nothing.
   */
  const onAirIn = (rooms: string[], grantId: string | undefined, channelOf: (room: string) => number | undefined) => {
    let recorded = false;
    for (const room of rooms) {
      const alsoIn = rooms.filter((other) => other !== room).flatMap((other) => channelOf(other) ?? []);
      const engine = engineOf(room);
      if (recorded) engine?.setBroadcasting(true, { records: false });
      else recorded = engine?.setBroadcasting(true, { alsoIn, ...(grantId ? { grantId } : {}) }) ?? false;
    }
  };

  const press = async () => {
    if (held.current || !socket?.connected) return;
    held.current = true;
    const asked = targets();
    if (asked.length === 0) return;
    const answer = await request(
      socket,
      asked.map((target) => target.room),
    );
    if (!answer) {
      setReport(t('allCall.noAnswer'));
      return;
    }
    const nameOf = (room: string) => asked.find((target) => target.room === room)?.name ?? room;
    const refused = answer.refused.map((refusal) =>
      refusal.reason === 'busy' && refusal.holder
        ? t('allCall.busy', { channel: nameOf(refusal.room), name: refusal.holder.name })
        : t(`allCall.refused.${refusal.reason}`, { channel: nameOf(refusal.room) }),
    );
    setReport([t('allCall.granted', { count: answer.granted.length, total: asked.length }), ...refused].join(' '));
    if (!held.current) {
      stop(answer.granted);
      return;
    }
    granted.current = answer.granted;
    onAirIn(answer.granted, answer.grantId, (room) => asked.find((target) => target.room === room)?.channelId);
    setOnAir(answer.granted.length > 0);
  };

  const release = () => {
    if (!held.current) return;
    held.current = false;
    stop(granted.current);
    granted.current = [];
    setOnAir(false);
  };

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
      <ButtonBase
        aria-pressed={onAir}
        data-on-air={onAir ? 'true' : 'false'}
        disabled={!socket || disabled}
        onPointerDown={(event) => {
          if (event.pointerType === 'mouse' && event.button !== 0) return;
          event.preventDefault();
          void press();
        }}
        onPointerUp={release}
        onPointerLeave={release}
        onPointerCancel={release}
        onKeyDown={(event) => {
          if ((event.key === ' ' || event.key === 'Enter') && !event.repeat) {
            event.preventDefault();
            event.stopPropagation();
            void press();
          }
        }}
        onKeyUp={(event) => {
          if (event.key === ' ' || event.key === 'Enter') {
            event.preventDefault();
            event.stopPropagation();
            release();
          }
        }}
        onBlur={release}
        onContextMenu={(event) => event.preventDefault()}
        sx={{
          gap: 1,
          px: 2.5,
          minHeight: 48,
          borderRadius: 6,
          fontWeight: 800,
          color: '#fff',
          touchAction: 'none',
          userSelect: 'none',
          bgcolor: onAir ? '#c0392b' : '#8a3b12',
          '&.Mui-disabled': { bgcolor: 'action.disabledBackground', color: 'text.disabled', boxShadow: 'none' },
          boxShadow: onAir ? '0 0 0 6px rgba(242,165,65,0.35)' : 2,
        }}
      >
        <CampaignIcon aria-hidden />
        {t('allCall.button')}
      </ButtonBase>
      <Typography variant="body2" role="status" aria-label={t('allCall.status')} sx={{ maxWidth: 420 }}>
        {report}
      </Typography>
    </Box>
  );
}
