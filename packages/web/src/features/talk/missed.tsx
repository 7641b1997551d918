/**
 * Nothing missed (issue 34), on /talk: the member's missed transmissions per channel (the server's count, the
 * same on every device), "Play 2 missed" on a channel page (oldest first, each marked heard as it starts, for
 * all the member's devices), and the "Ne pas déranger" (Busy) switch. While busy, the pages do not play the channels'
 * voices (they go to the missed list); an SOS and a private call still ring.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import {
  GetMissedTransmissions,
  MarkTransmissionsHeard,
  SetAvailability,
  type VoiceMessage,
} from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { callKey, useApiMutation, useApiQuery } from '../../api/queries.ts';
import { useServerEvents } from '../../api/serverEvents.ts';
import { failureNotice } from '../../components/failureNotice.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { playVoiceMessages, setIncomingMuted } from '../../engines/voice/index.ts';

/** The member's missed transmissions (and, with `channelId`, that channel's list), kept fresh by the pushes. */
export function useMissed(channelId?: number) {
  const queryClient = useQueryClient();
  const query = useApiQuery(GetMissedTransmissions, channelId === undefined ? {} : { channelId }, {
    refetchInterval: 60_000,
  });
  useServerEvents(['missedTransmissionsChanged', 'resync'], () => {
    void queryClient.invalidateQueries({ queryKey: callKey(GetMissedTransmissions) });
  });
  const counts = new Map((query.data?.channels ?? []).map((entry) => [entry.channelId, entry.count]));
  return { counts, list: query.data?.res ?? [], busy: query.data?.busy ?? false, loaded: query.data !== undefined };
}

/** Marks one played transmission heard on the server (every device of the member's), quietly. */
export function markHeard(item: Pick<VoiceMessage, 'id'>): void {
  void api(MarkTransmissionsHeard, { ids: [item.id] }).catch(() => {});
}

/** "2 missed" beside a channel of the list (nothing when none). */
export function MissedCount({ count }: { count: number }) {
  const { t } = useTranslation('talk');
  if (count === 0) return null;
  return (
    <Box
      component="span"
      data-testid="channel-missed"
      sx={{ display: 'block', color: 'warning.dark', fontWeight: 700 }}
    >
      {t('missed.count', { count })}
    </Box>
  );
}

/** "Play 2 missed" on a channel page: oldest first, each marked heard as it starts. */
export function PlayMissedButton({ list }: { list: readonly VoiceMessage[] }) {
  const { t } = useTranslation('talk');
  const queryClient = useQueryClient();
  const play = useCallback(() => {
    playVoiceMessages(list, (item) => {
      markHeard(item);
      void queryClient.invalidateQueries({ queryKey: callKey(GetMissedTransmissions) });
    });
  }, [list, queryClient]);
  if (list.length === 0) return null;
  return (
    <Button variant="contained" color="warning" onClick={play} sx={{ minHeight: 44, alignSelf: 'center' }}>
      {t('missed.play', { count: list.length })}
    </Button>
  );
}

/**
 * "Ne pas déranger" (Busy): one switch, apart from "Mon statut" (issue 58: one status control on /talk); on,
 * the channels' voices go to the missed list, and a sentence says what it means either way.
 */
export function AvailabilitySwitch() {
  const { t } = useTranslation('talk');
  const meaningId = useId();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { busy, loaded } = useMissed();
  const change = useApiMutation(SetAvailability, {
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: callKey(GetMissedTransmissions) }),
    onError: (error) => notify(failureNotice(t, error)),
  });
  const shown = change.isPending && change.variables ? change.variables.busy : busy;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column' }}>
      <FormControlLabel
        sx={{ minHeight: 48, mr: 0, ml: 0 }}
        control={
          <Switch
            checked={shown}
            disabled={!loaded}
            onChange={(event) => change.mutate({ busy: event.target.checked })}
            slotProps={{ input: { 'aria-label': t('availability.busy'), 'aria-describedby': meaningId } }}
          />
        }
        label={<span aria-hidden>{t('availability.busy')}</span>}
      />
      <Typography id={meaningId} variant="body2" sx={{ color: 'text.secondary' }}>
        {shown ? t('availability.busyMeans') : t('availability.availableMeans')}
      </Typography>
    </Box>
  );
}

/** On a channel page: while busy, the channel's voices are not played (a private call's are), and it says so. */
export function BusyNotice({ busy, room }: { busy: boolean; room: string }) {
  const { t } = useTranslation('talk');
  useEffect(() => {
    setIncomingMuted(room, busy);
    return () => setIncomingMuted(room, false);
  }, [busy, room]);
  if (!busy) return null;
  return <Alert severity="info">{t('availability.busyNotice')}</Alert>;
}
