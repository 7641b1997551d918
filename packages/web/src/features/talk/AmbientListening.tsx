/**
 * Ambient listening on /talk (issue 60 item 6): on `ambient_start` the page offers its microphone to the console
 * that listens, on a connection of its own (engines/ambient), until `ambient_end`. Where the organisation
 * announces it, the page says who listens while it lasts ("Ambient listening by {name}"); where it is discreet,
 * it shows nothing. The talk button and the channel are untouched.
 */
import Alert from '@mui/material/Alert';
import type { AmbientStart } from '@talkgroup/protocol';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSharedSocket } from '../../api/serverEvents.ts';
import { useClientConfig } from '../../api/useClientConfig.ts';
import { offerAmbient } from '../../engines/ambient/ambientPeer.ts';

export function AmbientListeningAgent() {
  const { t } = useTranslation('safety');
  const { socket } = useSharedSocket();
  const config = useClientConfig();
  const [current, setCurrent] = useState<AmbientStart | null>(null);
  // Read when it starts: a renewal of the TURN credentials must not restart a running listening.
  const ice = useRef(config.data);
  ice.current = config.data;
  const configured = Boolean(config.data);

  useEffect(() => {
    if (!socket) return;
    const onStart = (payload: AmbientStart) => setCurrent(payload);
    const onEnd = (payload: { listeningId: string }) =>
      setCurrent((now) => (now?.listeningId === payload.listeningId ? null : now));
    socket.on('ambient_start', onStart);
    socket.on('ambient_end', onEnd);
    return () => {
      socket.off('ambient_start', onStart);
      socket.off('ambient_end', onEnd);
    };
  }, [socket]);

  const listeningId = current?.listeningId;
  useEffect(() => {
    const settings = ice.current;
    if (!socket || !listeningId || !configured || !settings) return;
    let stopped = false;
    let peer: { stop(): void } | undefined;
    offerAmbient(socket, listeningId, {
      iceServers: settings.iceServers ?? [],
      iceTransportPolicy: settings.iceTransportPolicy,
    })
      .then((started) => {
        if (stopped) started.stop();
        else peer = started;
      })
      .catch(() => undefined);
    return () => {
      stopped = true;
      peer?.stop();
    };
  }, [socket, listeningId, configured]);

  if (!current?.announced) return null;
  return (
    <Alert severity="info" role="status" square sx={{ borderRadius: 0 }}>
      {t('ambient.by', { name: current.listener.name })}
    </Alert>
  );
}
