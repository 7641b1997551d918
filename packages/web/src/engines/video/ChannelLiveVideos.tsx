/**
 * A channel's live streams side by side (issue 61 item 4): in its dispatch tile, and on a member's /talk where
 * the channel's videoAudience is 'channel'. The user's own streams are left out (its page shows its preview). A
 * stream this page may no longer watch (issue 69: `video_ended` with `no_right`, its rights changed) leaves the
 * tile with a sentence that says why.
 */
import Box from '@mui/material/Box';
import { GetUsersInChannel, type VideoEnded } from '@talkgroup/protocol';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/queries.ts';
import { useSharedSocket } from '../../api/serverEvents.ts';
import { useSession } from '../../api/session.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { LiveVideoView } from './LiveVideoView.tsx';
import { useLiveVideos } from './useLiveVideos.ts';

export function ChannelLiveVideos({
  channel,
  canCapture = false,
  onOpenChat,
}: {
  channel: { id: number; name: string };
  /** The console: "Capture" to the chat, with the member's last position. */
  canCapture?: boolean;
  /** Issue 70: the console's chat of the channel, where a capture goes. */
  onOpenChat?: () => void;
}) {
  const { t } = useTranslation('video');
  const selfId = useSession()?.user?.id;
  const streams = useLiveVideos().filter((video) => video.channelId === channel.id && video.userId !== selfId);
  useNoRightNotice(channel, streams);
  // The console's tile reads this list already: the positions come with it.
  const members = useApiQuery(
    GetUsersInChannel,
    { channelId: channel.id },
    { enabled: canCapture && streams.length > 0 },
  );
  if (streams.length === 0) return null;
  const positionOf = (userId: number) => members.data?.res.find((user) => user.id === userId)?.userPositions[0] ?? null;
  return (
    <Box
      component="section"
      aria-label={t('live.region', { channel: channel.name })}
      sx={{
        display: 'grid',
        gap: 1,
        gridTemplateColumns: streams.length > 1 ? 'repeat(auto-fit, minmax(160px, 1fr))' : '1fr',
      }}
    >
      {streams.map((video) => (
        <LiveVideoView
          key={video.streamId}
          video={video}
          channelName={channel.name}
          position={positionOf(video.userId)}
          canCapture={canCapture}
          onOpenChat={onOpenChat}
        />
      ))}
    </Box>
  );
}

/** Tells the reader that a stream of this channel it watched is no longer its to watch (its rights changed). */
function useNoRightNotice(channel: { id: number; name: string }, streams: Array<{ streamId: string; name: string }>) {
  const { t } = useTranslation('video');
  const notify = useNotify();
  const { socket } = useSharedSocket();
  // The names as they were shown: the list drops the stream as the event comes.
  const shown = useRef(new Map<string, string>());
  for (const stream of streams) shown.current.set(stream.streamId, stream.name);
  useEffect(() => {
    if (!socket) return;
    const onEnded = (ended: VideoEnded) => {
      if (ended.reason !== 'no_right' || ended.channelId !== channel.id) return;
      const name = shown.current.get(ended.streamId) ?? '';
      notify({ severity: 'warning', message: t('live.noRight', { name, channel: channel.name }) });
    };
    socket.on('video_ended', onEnded);
    return () => {
      socket.off('video_ended', onEnded);
    };
  }, [socket, channel.id, channel.name, notify, t]);
}
