/**
 * One tile per participant with its name, a talking indicator (spec section 2) and its status with its age
 * (issue 49); a SIP gateway's call (issue 51) has the gateway mark beside its name and, for who manages gateways,
 * "Raccrocher". The layout follows the
 * count: 1, 2–4, 5–6, 7–8 and 9–13 participants; 'Waiting for users' when nobody else is in the room.
 * The video room lays its peers out in columns of four instead.
 */
import GraphicEqIcon from '@mui/icons-material/GraphicEq';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmpty';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { keyframes } from '@mui/system';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { type MemberStatusEntry, useMemberStatuses } from '../../../api/statuses.ts';
import { StatusChip } from '../../../components/StatusChip.tsx';
import { GatewayMark, HangUpGatewayButton } from '../../../engines/gateways/index.ts';
import type { PeerState } from '../../../engines/voice/index.ts';
import { gridBand, gridColumns } from './gridLayout.ts';

const pulse = keyframes`
  0% { box-shadow: 0 0 0 0 rgba(30,125,58,0.55); }
  70% { box-shadow: 0 0 0 12px rgba(30,125,58,0); }
  100% { box-shadow: 0 0 0 0 rgba(30,125,58,0); }
`;

export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const letters = words.length === 1 ? [...words[0]].slice(0, 2) : [[...words[0]][0], [...words[words.length - 1]][0]];
  return letters.join('').toUpperCase();
}

function PeerVideo({ stream }: { stream: MediaStream | null }) {
  const ref = useRef<HTMLVideoElement | null>(null);
  useEffect(() => {
    if (ref.current && ref.current.srcObject !== stream) ref.current.srcObject = stream;
  }, [stream]);
  // Muted: the sound plays through the room's own audio element, once.
  return (
    <Box
      component="video"
      ref={ref}
      autoPlay
      playsInline
      muted
      sx={{ width: '100%', aspectRatio: '1 / 1', objectFit: 'cover', borderRadius: 2, bgcolor: '#0f2537' }}
    />
  );
}

export function ParticipantTile({
  peer,
  video = false,
  dense = false,
  status,
}: {
  peer: PeerState;
  video?: boolean;
  dense?: boolean;
  /** The participant's status now (issue 49), when it has one. */
  status?: MemberStatusEntry;
}) {
  const { t } = useTranslation('room');
  const name = peer.name || t('participants.unnamed');
  const connecting = peer.connection === 'new' || peer.connection === 'connecting';
  const lost = peer.connection === 'failed' || peer.connection === 'disconnected';
  const hasVideo = video && (peer.stream?.getVideoTracks().length ?? 0) > 0;
  return (
    <Paper
      variant="outlined"
      role="listitem"
      aria-label={name}
      data-peer-id={peer.id}
      data-talking={peer.talking ? 'true' : 'false'}
      sx={{
        p: dense ? 1.25 : 2,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 1,
        minWidth: 0,
        minHeight: dense ? 104 : 140,
        borderWidth: 2,
        borderColor: peer.talking ? 'success.main' : 'divider',
        bgcolor: peer.talking ? 'rgba(30,125,58,0.06)' : 'background.paper',
        transition: 'border-color 80ms linear, background-color 80ms linear',
      }}
    >
      {hasVideo ? (
        <PeerVideo stream={peer.stream} />
      ) : (
        <Avatar
          sx={{
            width: dense ? 48 : 64,
            height: dense ? 48 : 64,
            fontSize: dense ? '1.05rem' : '1.35rem',
            fontWeight: 700,
            bgcolor: peer.talking ? 'success.main' : '#16324a',
            animation: peer.talking ? `${pulse} 1.2s ease-out infinite` : 'none',
          }}
          aria-hidden
        >
          {initials(name)}
        </Avatar>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, maxWidth: '100%' }}>
        {peer.gateway ? <GatewayMark /> : null}
        <Typography sx={{ fontWeight: 650, minWidth: 0 }} noWrap title={name}>
          {name}
        </Typography>
      </Box>
      <Typography
        variant="caption"
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 0.5,
          fontWeight: peer.talking ? 700 : 500,
          color: peer.talking ? 'success.main' : lost ? 'error.main' : 'text.secondary',
        }}
      >
        {peer.talking ? <GraphicEqIcon fontSize="small" aria-hidden /> : null}
        {peer.talking
          ? t('participants.talking')
          : peer.noVoice
            ? t('participants.noVoice')
            : lost
              ? t('participants.lost')
              : connecting
                ? t('participants.connecting')
                : t('participants.listening')}
      </Typography>
      {status ? <StatusChip status={status.status} since={status.since} setBy={status.setBy} /> : null}
      {peer.gateway ? <HangUpGatewayButton callId={peer.gateway.callId} name={name} /> : null}
    </Paper>
  );
}

export interface ParticipantsGridProps {
  peers: PeerState[];
  video?: boolean;
  /** The video room: four peers per column. */
  columnsOfFour?: boolean;
  dense?: boolean;
}

export function ParticipantsGrid({
  peers,
  video = false,
  columnsOfFour = false,
  dense = false,
}: ParticipantsGridProps) {
  const { t } = useTranslation('room');
  const statuses = useMemberStatuses();
  if (peers.length === 0) {
    return (
      <Box
        sx={{
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          justifyContent: 'center',
          gap: 1,
          minHeight: dense ? 120 : 180,
          color: 'text.secondary',
          border: '2px dashed',
          borderColor: 'divider',
          borderRadius: 3,
          p: 3,
          textAlign: 'center',
        }}
      >
        <HourglassEmptyIcon aria-hidden />
        <Typography sx={{ fontWeight: 600 }}>{t('participants.waiting')}</Typography>
      </Box>
    );
  }
  const columns = gridColumns(peers.length);
  return (
    <Box
      role="list"
      aria-label={t('participants.label')}
      data-layout={gridBand(peers.length)}
      sx={
        columnsOfFour
          ? {
              display: 'grid',
              gridAutoFlow: 'column',
              gridTemplateRows: `repeat(${Math.min(4, peers.length)}, auto)`,
              gridAutoColumns: 'minmax(150px, 200px)',
              gap: 1.5,
              overflowX: 'auto',
            }
          : {
              display: 'grid',
              gap: 1.5,
              gridTemplateColumns: {
                xs: `repeat(${Math.min(columns, 2)}, minmax(0, 1fr))`,
                sm: `repeat(${Math.min(columns, 3)}, minmax(0, 1fr))`,
                md: `repeat(${columns}, minmax(0, 1fr))`,
              },
            }
      }
    >
      {peers.map((peer) => (
        <ParticipantTile
          key={peer.id}
          peer={peer}
          video={video}
          dense={dense || peers.length > 8}
          status={peer.userId === null || peer.gateway ? undefined : statuses.get(peer.userId)}
        />
      ))}
    </Box>
  );
}
