/**
 * One request of the call queue: its place, requester, channel, "Urgent", the note, the time it has waited
 * (ticking), its state and holder, and what this dispatcher may do with it, each button named by its verb and
 * the requester. A request recalled by the server (it waited too long) is marked. An ended one says who took it,
 * who closed it, how it ended, its reference and the close note (issue 58).
 */
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import HeadsetMicIcon from '@mui/icons-material/HeadsetMic';
import HighlightOffIcon from '@mui/icons-material/HighlightOff';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import type { DispatchRequest } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../i18n/dates.ts';
import {
  type DurationT,
  formatDuration,
  handledNow,
  type QueueAction,
  type QueueEntry,
  waitedNow,
} from './queueOrder.ts';

export interface QueueRowProps {
  entry: QueueEntry;
  now: number;
  /** What this dispatcher may do with it now; none for an ended request. */
  actions: QueueAction[];
  busy: boolean;
  onAction: (action: QueueAction, request: DispatchRequest) => void;
}

const ACTION_VARIANT: Record<QueueAction, 'contained' | 'outlined' | 'text'> = {
  take: 'contained',
  sendBack: 'outlined',
  transfer: 'outlined',
  close: 'text',
};

function StateIcon({ state }: { state: DispatchRequest['state'] }) {
  if (state === 'taken') return <HeadsetMicIcon />;
  if (state === 'transferring') return <SwapHorizIcon />;
  if (state === 'closed') return <CheckCircleOutlineIcon />;
  return <HighlightOffIcon />;
}

export function QueueRow({ entry, now, actions, busy, onAction }: QueueRowProps) {
  const { t, i18n } = useTranslation('dispatch');
  const duration = (ms: number) => formatDuration(t as unknown as DurationT, ms);
  const { request } = entry;
  const name = request.requester.name;
  const waiting = request.state === 'waiting';
  const reminded = waiting && Boolean(request.remindedAt);
  const handled = handledNow(entry, now);
  const stateText = (() => {
    switch (request.state) {
      case 'taken': {
        const by = t('queue.state.taken', { name: request.heldBy?.name ?? '' });
        return request.answer ? `${by} · ${t(`queue.answer.${request.answer}`)}` : by;
      }
      case 'transferring':
        return t('queue.state.transferring', {
          holder: request.heldBy?.name ?? '',
          name: request.transferTo?.name ?? '',
        });
      default:
        return [
          t(`queue.state.${request.state}`),
          request.outcome ? t(`queue.outcome.${request.outcome}`) : null,
          request.takenBy ? t('queue.takenBy', { name: request.takenBy.name }) : null,
          request.closedBy ? t('queue.closedBy', { name: request.closedBy.name }) : null,
          request.reference ? t('queue.reference', { reference: request.reference }) : null,
        ]
          .filter(Boolean)
          .join(' · ');
    }
  })();
  const ended = request.endedAt
    ? t('queue.endedAt', { time: formatDate(request.endedAt, 'HH:mm', i18n.resolvedLanguage) })
    : null;
  const times = waiting
    ? [t('queue.waited', { time: duration(waitedNow(entry, now)) })]
    : [
        t('queue.waitedTotal', { time: duration(request.waitedMs) }),
        handled !== undefined && !ended ? t('queue.handled', { time: duration(handled) }) : null,
        ended,
      ].filter(Boolean);

  return (
    <ListItem
      divider
      sx={{
        gap: 1.5,
        flexWrap: 'wrap',
        alignItems: 'center',
        borderLeft: 4,
        borderLeftColor: reminded ? 'warning.main' : request.priority === 'high' ? 'error.main' : 'transparent',
        bgcolor: reminded ? 'rgba(237, 108, 2, 0.08)' : undefined,
      }}
    >
      <Box
        {...(waiting && request.position !== null
          ? { role: 'img', 'aria-label': t('queue.placeLabel', { position: request.position }) }
          : { 'aria-hidden': true })}
        sx={{
          minWidth: 40,
          height: 40,
          borderRadius: 2,
          display: 'grid',
          placeItems: 'center',
          fontWeight: 800,
          bgcolor: waiting ? 'action.selected' : undefined,
          color: waiting ? undefined : 'text.secondary',
        }}
      >
        {waiting && request.position !== null ? (
          request.position === 1 ? (
            t('queue.placeFirst')
          ) : (
            t('queue.place', { position: request.position })
          )
        ) : (
          <StateIcon state={request.state} />
        )}
      </Box>
      <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography component="span" sx={{ fontWeight: 700 }}>
            {name}
          </Typography>
          {request.priority === 'high' ? <Chip size="small" color="error" label={t('queue.urgent')} /> : null}
          {reminded ? <Chip size="small" color="warning" variant="outlined" label={t('queue.reminded')} /> : null}
          <Typography component="span" variant="body2" sx={{ color: 'text.secondary' }}>
            {request.channelName}
          </Typography>
        </Box>
        {request.note ? (
          <Typography variant="body2" sx={{ fontStyle: 'italic', overflowWrap: 'anywhere' }}>
            {t('queue.note', { note: request.note })}
          </Typography>
        ) : null}
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {(waiting ? times : [stateText, ...times]).join(' · ')}
        </Typography>
        {request.closeNote ? (
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {t('queue.closeNote', { note: request.closeNote })}
          </Typography>
        ) : null}
      </Box>
      {actions.length > 0 ? (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          {actions.map((action) => (
            <Button
              key={action}
              size="small"
              variant={ACTION_VARIANT[action]}
              disabled={busy}
              aria-label={t(`queue.${action}`, { name })}
              onClick={() => onAction(action, request)}
            >
              {t(`queue.${action}Short`)}
            </Button>
          ))}
        </Box>
      ) : null}
    </ListItem>
  );
}
