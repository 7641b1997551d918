/**
 * Who waits for a channel's floor (issue 59): the channel's queue as the server pushes it to the room
 * (`floor_queue`), first first, with each one's talk priority, for the room page and the dispatch console's
 * tiles. A dispatcher or administrator removes one ("Retirer de la file", named with the person's name:
 * `floor_queue_remove`); the server ignores a member's removal, so the page offers it only to those who may.
 */
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { FloorQueueEntry } from '@talkgroup/protocol';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RoomSocket } from './voiceRoomState.ts';

/** The channel's floor queue now, kept from its room's `floor_queue` pushes (empty until the first). */
export function useFloorQueue(socket: RoomSocket | null, room: string | undefined) {
  const [queue, setQueue] = useState<FloorQueueEntry[]>([]);
  useEffect(() => {
    setQueue([]);
    if (!socket || !room) return;
    const changed = (payload: { room: string; queue: FloorQueueEntry[] }) => {
      if (payload.room === room) setQueue(payload.queue);
    };
    // The server forgets a lost socket's requests; the next push after the rejoin says what is left.
    const lost = () => setQueue([]);
    socket.on('floor_queue', changed);
    socket.on('disconnect', lost);
    return () => {
      socket.off('floor_queue', changed);
      socket.off('disconnect', lost);
    };
  }, [socket, room]);
  const remove = useCallback(
    (userId: number) => {
      if (socket?.connected && room) socket.emit('floor_queue_remove', { room, userId });
    },
    [socket, room],
  );
  return { queue, remove };
}

export interface FloorQueueListProps {
  queue: FloorQueueEntry[];
  /** Given to a dispatcher or administrator: a remove button per person. */
  onRemove?: (userId: number) => void;
  /** Tighter, for a dispatch tile. */
  dense?: boolean;
}

/** The list of who waits, or nothing while nobody does. */
export function FloorQueueList({ queue, onRemove, dense = false }: FloorQueueListProps) {
  const { t } = useTranslation('room');
  if (queue.length === 0) return null;
  return (
    <Box
      component="section"
      aria-label={t('floorQueue.title')}
      sx={{ border: 1, borderColor: 'warning.light', borderRadius: 1, px: 1.25, py: dense ? 0.5 : 1 }}
    >
      <Typography variant={dense ? 'caption' : 'subtitle2'} component="h3" sx={{ fontWeight: 700 }}>
        {t('floorQueue.heading', { count: queue.length })}
      </Typography>
      <Box component="ol" sx={{ m: 0, pl: 2.5 }}>
        {queue.map((entry) => (
          <Box
            component="li"
            key={entry.userId}
            sx={{ py: dense ? 0 : 0.25, '& > div': { display: 'flex', alignItems: 'center', gap: 1 } }}
          >
            <div>
              <Typography variant="body2" component="span" sx={{ flex: 1, minWidth: 0 }} noWrap>
                {entry.name}
              </Typography>
              <Typography variant="caption" component="span" sx={{ color: 'text.secondary' }}>
                {t('floorQueue.priority', { priority: entry.priority })}
              </Typography>
              {onRemove ? (
                <Tooltip title={t('floorQueue.remove')}>
                  <IconButton
                    size="small"
                    aria-label={t('floorQueue.removeNamed', { name: entry.name })}
                    onClick={() => onRemove(entry.userId)}
                  >
                    <PersonRemoveIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              ) : null}
            </div>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
