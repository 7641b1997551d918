/**
 * The channel page's live video (issue 61): the room's socket, ICE servers and recording rule handed to the video
 * engine, and a dispatcher's request accepted on VideoRequestPrompt (the location's state) started here once the
 * page is in the channel's room.
 */
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { RoomChannel, useRoom } from '../../engines/room/index.ts';
import { useVideoShare } from '../../engines/video/index.ts';
import type { TalkVideoRequestState } from './VideoRequestPrompt.tsx';

export function useTalkVideo(room: ReturnType<typeof useRoom>, channel: RoomChannel) {
  const share = useVideoShare({
    socket: room.socket,
    room: channel.rtcSession,
    joined: room.connected && room.voice.state.joined,
    recording: channel.recording,
    ice: room.config
      ? { iceServers: room.config.iceServers ?? [], iceTransportPolicy: room.config.iceTransportPolicy }
      : undefined,
  });
  const location = useLocation();
  const navigate = useNavigate();
  const request = (location.state as Partial<TalkVideoRequestState> | null)?.videoRequest;
  const { ready, start } = share;
  useEffect(() => {
    if (!request || !ready) return;
    navigate(location.pathname, { replace: true, state: null });
    void start(request);
  }, [request, ready, start, navigate, location.pathname]);
  return share;
}
