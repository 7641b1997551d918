/**
 * A channel's live streams side by side (issue 61 item 4): in its dispatch tile, and on a member's /talk where
 * the channel's videoAudience is 'channel'. The user's own streams are left out (its page shows its preview).
 */
import Box from '@mui/material/Box';
import { GetUsersInChannel } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/queries.ts';
import { useSession } from '../../api/session.ts';
import { LiveVideoView } from './LiveVideoView.tsx';
import { useLiveVideos } from './useLiveVideos.ts';

export function ChannelLiveVideos({
  channel,
  canCapture = false,
}: {
  channel: { id: number; name: string };
  /** The console: "Capture" to the chat, with the member's last position. */
  canCapture?: boolean;
}) {
  const { t } = useTranslation('video');
  const selfId = useSession()?.user?.id;
  const streams = useLiveVideos().filter((video) => video.channelId === channel.id && video.userId !== selfId);
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
        />
      ))}
    </Box>
  );
}
