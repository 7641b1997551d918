/**
 * The room page's own socket (the token travels in the handshake query). One per page: it joins one channel
 * room, and leaving the page disconnects it, which the server reports to the others as user_exit.
 */
import { useEffect, useState } from 'react';
import { createSocket, type TalkgroupSocket } from '../../api/socket.ts';

export function useRoomSocket(token: string | null | undefined): {
  socket: TalkgroupSocket | null;
  connected: boolean;
} {
  const [socket, setSocket] = useState<TalkgroupSocket | null>(null);
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    if (!token) return;
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
  }, [token]);

  return { socket, connected };
}
