/**
 * Ambient listening from the member's device status (issue 60 item 6): "Ambient listening" starts it (refused with
 * the server's sentence where the organisation has it off, the app is closed, or the caller may not), the member's
 * microphone plays in this page, "Listening to {name}" says so, and "Stop" ends it. Closing the dialog stops it
 * too: no listening outlives the page that shows it.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { StartAmbientListening, StopAmbientListening } from '@talkgroup/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../../api/client.ts';
import { useApiMutation } from '../../../api/queries.ts';
import { useSharedSocket } from '../../../api/serverEvents.ts';
import { useClientConfig } from '../../../api/useClientConfig.ts';
import { answerAmbient } from '../../../engines/ambient/ambientPeer.ts';

type Offer = { listeningId: string; sdp: string };
type Candidate = { listeningId: string; candidate: RTCIceCandidateInit | null };

export function AmbientListeningControl({ user }: { user: { id: number; name: string } }) {
  const { t } = useTranslation('safety');
  const { socket } = useSharedSocket();
  const config = useClientConfig();
  const start = useApiMutation(StartAmbientListening);
  const stop = useApiMutation(StopAmbientListening);
  const audio = useRef<HTMLAudioElement>(null);
  const [listeningId, setListeningId] = useState<string | null>(null);
  const [ended, setEnded] = useState(false);
  const current = useRef<string | null>(null);
  const peer = useRef<{ stop(): void } | undefined>(undefined);
  /** What came before this page knew the listening's id (the member's page may offer before the start answers). */
  const early = useRef({ offers: new Map<string, Offer>(), candidates: new Map<string, Candidate['candidate'][]>() });
  const iceRef = useRef(config.data);
  iceRef.current = config.data;

  const answer = useCallback(
    async (offer: Offer) => {
      const element = audio.current;
      if (!socket || !element || peer.current) return;
      const ice = iceRef.current;
      const waiting = early.current.candidates.get(offer.listeningId) ?? [];
      early.current.candidates.delete(offer.listeningId);
      const started = await answerAmbient(
        socket,
        offer,
        { iceServers: ice?.iceServers ?? [], iceTransportPolicy: ice?.iceTransportPolicy },
        element,
        waiting,
      );
      if (current.current === offer.listeningId) peer.current = started;
      else started.stop();
    },
    [socket],
  );

  const finish = useCallback(() => {
    peer.current?.stop();
    peer.current = undefined;
    current.current = null;
    setListeningId(null);
  }, []);

  useEffect(() => {
    if (!socket) return;
    const onOffer = (offer: Offer) => {
      if (current.current === offer.listeningId) void answer(offer).catch(() => undefined);
      else early.current.offers.set(offer.listeningId, offer);
    };
    const onCandidate = (payload: Candidate) => {
      if (peer.current) return;
      const list = early.current.candidates.get(payload.listeningId) ?? [];
      list.push(payload.candidate);
      early.current.candidates.set(payload.listeningId, list);
    };
    const onEnd = (payload: { listeningId: string }) => {
      if (payload.listeningId !== current.current) return;
      finish();
      setEnded(true);
    };
    socket.on('ambient_offer', onOffer);
    socket.on('ambient_candidate', onCandidate as never);
    socket.on('ambient_end', onEnd);
    return () => {
      socket.off('ambient_offer', onOffer);
      socket.off('ambient_candidate', onCandidate as never);
      socket.off('ambient_end', onEnd);
    };
  }, [socket, answer, finish]);

  // The dialog closes: the listening stops with it.
  useEffect(
    () => () => {
      const id = current.current;
      finish();
      if (id) void api(StopAmbientListening, { listeningId: id }).catch(() => undefined);
    },
    [finish],
  );

  const begin = () => {
    setEnded(false);
    start.mutate(
      { userId: user.id },
      {
        onSuccess: ({ res }) => {
          current.current = res.listeningId;
          setListeningId(res.listeningId);
          const offer = early.current.offers.get(res.listeningId);
          early.current.offers.delete(res.listeningId);
          if (offer) void answer(offer).catch(() => undefined);
        },
      },
    );
  };
  const end = () => {
    if (!listeningId) return;
    stop.mutate({ listeningId });
    finish();
    setEnded(true);
  };

  return (
    <Stack spacing={1} sx={{ mt: 2 }}>
      {/* biome-ignore lint/a11y/useMediaCaption: a member's surroundings, live: there is nothing to caption. */}
      <audio ref={audio} autoPlay hidden />
      {start.error ? <Alert severity="error">{errorMessage(start.error, t('ambient.failed'))}</Alert> : null}
      {listeningId ? (
        <Alert
          severity="warning"
          role="status"
          action={
            <Button color="inherit" size="small" onClick={end}>
              {t('ambient.stop')}
            </Button>
          }
        >
          {t('ambient.listening', { name: user.name })}
        </Alert>
      ) : (
        <>
          {ended ? (
            <Alert severity="info" role="status">
              {t('ambient.ended')}
            </Alert>
          ) : null}
          <Button variant="outlined" onClick={begin} disabled={start.isPending}>
            {t('ambient.start')}
          </Button>
        </>
      )}
    </Stack>
  );
}
