/**
 * Issue 70: a monitored channel's chat beside the console, in a side panel, so that a capture sent there (or any
 * message) is read without leaving the desk and its voices: the history, live messages (the page's socket is in
 * each tile's room) and the reply field, as in the channel's own room.
 */
import Drawer from '@mui/material/Drawer';
import { useTranslation } from 'react-i18next';
import type { TalkgroupSocket } from '../../api/socket.ts';
import { ChatPanel, useChat } from '../../engines/room/index.ts';

export interface ChatChannel {
  id: number;
  name: string;
  rtcSession: string;
  recording: boolean;
}

export function ChannelChatDrawer({
  channel,
  socket,
  selfId,
  onClose,
}: {
  channel: ChatChannel;
  socket: TalkgroupSocket | null;
  selfId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation('dispatch');
  const chat = useChat({
    channelId: channel.id,
    room: channel.rtcSession,
    userId: selfId,
    socket,
    recording: channel.recording,
  });
  return (
    <Drawer
      anchor="right"
      open
      onClose={onClose}
      slotProps={{
        paper: {
          role: 'dialog',
          'aria-label': t('chat.of', { channel: channel.name }),
          sx: { width: 440, maxWidth: '100vw' },
        },
      }}
    >
      <ChatPanel chat={chat} userId={selfId} channelName={channel.name} onClose={onClose} />
    </Drawer>
  );
}
