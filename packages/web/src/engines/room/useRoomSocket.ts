/**
 * The room page's socket (the token travels in the handshake query). With the session's own token it is the
 * tab's one socket (api/serverEvents.ts), which every channel of the page shares; a call-view link's token gets
 * a socket of its own, closed when the page goes, which the server reports to the others as user_exit.
 */
import { useEffect, useState } from 'react';
import { useSharedSocket } from '../../api/serverEvents.ts';
import { getToken } from '../../api/session.ts';
import { createSocket, type TalkgroupSocket } from '../../api/socket.ts';

export function useRoomSocket(token: string | null | undefined): {
  socket: TalkgroupSocket | null;
  connected: boolean;
} {
  const own = Boolean(token) && token !== getToken();
  const shared = useSharedSocket(Boolean(token) && !own);
  const [socket, setSocket] = useState<TalkgroupSocket | null>(null);
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    if (!token || !own) return;
    const created = createSocket({ token });
    const up = () => setConnected(true);
    const down = () => setConnected(false);
    created.on('connect', up);
    created.on('disconnect', down);
    setSocket(created);
    return () => {
      created.off('connect', up);
      created.off('disconnect', down);
      created.disconnect();
      setSocket(null);
      setConnected(false);
    };
  }, [token, own]);

  return own ? { socket, connected } : shared;
}
