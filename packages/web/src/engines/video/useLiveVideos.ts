/**
 * What is live now that this user may watch (issue 61): getLiveVideos on load, read again on every
 * `video_started` and `video_ended` and on reconnection (a stream that ended while the page was away).
 */
import { GetLiveVideos, type LiveVideo, type ResponseOf } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { callKey, useApiQuery } from '../../api/queries.ts';
import { useSharedSocket } from '../../api/serverEvents.ts';

const NONE: LiveVideo[] = [];

export function useLiveVideos(): LiveVideo[] {
  const client = useQueryClient();
  const { socket } = useSharedSocket();
  const live = useApiQuery(GetLiveVideos, {});
  useEffect(() => {
    if (!socket) return;
    const refresh = () => void client.invalidateQueries({ queryKey: callKey(GetLiveVideos) });
    const onEnded = (payload: { streamId: string }) => {
      // Gone at once from every tile; the list is read again for the rest.
      client.setQueryData<ResponseOf<typeof GetLiveVideos>>(callKey(GetLiveVideos, {}), (data) =>
        data ? { ...data, res: data.res.filter((video) => video.streamId !== payload.streamId) } : data,
      );
      refresh();
    };
    socket.on('video_started', refresh);
    socket.on('video_ended', onEnded);
    socket.on('connect', refresh);
    return () => {
      socket.off('video_started', refresh);
      socket.off('video_ended', onEnded);
      socket.off('connect', refresh);
    };
  }, [socket, client]);
  return live.data?.res ?? NONE;
}
