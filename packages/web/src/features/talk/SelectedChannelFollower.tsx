/**
 * The channel /talk is on, when someone else chooses it (issue 59): a regroup, its end, or a dispatcher's
 * selectChannelFor (`selected_channel_changed`) switches the page at once, with a tone and a notice naming who
 * switched it; a member who opens /talk after a dispatcher chose its channel lands there. The page's own choice
 * (a channel opened) is told to the server, so that a regroup's end brings the member back to it. A regroup's end
 * is named (issue 70: "Fin du regroupement {name}"), told first by `regroup_ended`, and said once: with where the
 * page went back when it is switched, alone when the page was elsewhere.
 */
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import {
  GetMyChannels,
  GetMySelectedChannel,
  type RegroupEnded,
  type SelectedChannelChanged,
  SelectMyChannel,
} from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { callKey } from '../../api/queries.ts';
import { useServerEvent } from '../../api/serverEvents.ts';
import { playNotes } from '../../components/tones.ts';

/** A rising three-note call: above the channel's chirps, below the SOS siren. */
function switchedTone(): void {
  playNotes([659, 880, 1175], { noteSeconds: 0.12, level: 0.2, wave: 'triangle' });
}

/** Tells the server which channel the member opened (a failure changes nothing on the page). */
export function useSelectedChannelReport(channelId: number | undefined): void {
  useEffect(() => {
    if (channelId) api(SelectMyChannel, { channelId }).catch(() => {});
  }, [channelId]);
}

export function SelectedChannelFollower() {
  const { t } = useTranslation('talk');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<string | null>(null);
  /** The regroups that ended, by id: their names, for the switch back that follows (`regroup_ended` comes first). */
  const endedNames = useRef(new Map<number, string>());

  const follow = (change: SelectedChannelChanged) => {
    setNotice(noticeOf(change, endedNames.current.get(change.regroupId ?? 0), t));
    switchedTone();
    // The regroup's channel is new to the list: read again before the page looks for it.
    void queryClient.invalidateQueries({ queryKey: callKey(GetMyChannels) });
    navigate(change.channelId ? `/talk/${change.channelId}` : '/talk');
  };
  useServerEvent('selected_channel_changed', follow);
  useServerEvent('regroup_ended', ({ regroupId, name, backTo }: RegroupEnded) => {
    endedNames.current.set(regroupId, name);
    // Not switched (the page was on another channel): the end is said here, and the page stays where it is.
    if (!backTo) setNotice(t('selected.regroupEndNamed', { name }));
  });

  // Opened on its list after someone chose its channel: there it goes.
  const onList = /^\/talk\/?$/.test(pathname);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when /talk opens
  useEffect(() => {
    if (!onList) return;
    let gone = false;
    api(GetMySelectedChannel, {})
      .then(({ res }) => {
        if (gone || !res || res.reason === 'self' || !res.by) return;
        follow({ channelId: res.channelId, channelName: res.channelName, reason: res.reason, by: res.by });
      })
      .catch(() => {});
    return () => {
      gone = true;
    };
  }, []);

  return (
    <Snackbar
      open={notice !== null}
      autoHideDuration={30_000}
      onClose={(_event, reason) => reason !== 'clickaway' && setNotice(null)}
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
    >
      <Alert severity="info" variant="filled" role="status" onClose={() => setNotice(null)} sx={{ width: '100%' }}>
        {notice}
      </Alert>
    </Snackbar>
  );
}

/** What the notice of a switch says; a regroup's end names the regroup when its name is known. */
function noticeOf(change: SelectedChannelChanged, regroupName: string | undefined, t: TFunction<'talk'>): string {
  if (change.reason === 'regroup_end') {
    if (regroupName)
      return change.channelName
        ? t('selected.regroupEndNamedBack', { name: regroupName, channel: change.channelName })
        : t('selected.regroupEndNamed', { name: regroupName });
    return change.channelName
      ? t('selected.regroupEnd', { channel: change.channelName })
      : t('selected.regroupEndList');
  }
  return t(change.reason === 'regroup' ? 'selected.regroup' : 'selected.dispatcher', {
    channel: change.channelName ?? '',
    name: change.by.name,
  });
}
