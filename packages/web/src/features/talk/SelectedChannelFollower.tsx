/**
 * The channel /talk is on, when someone else chooses it (issue 59): a regroup, its end, or a dispatcher's
 * selectChannelFor (`selected_channel_changed`) switches the page at once, with a tone and a notice naming who
 * switched it; a member who opens /talk after a dispatcher chose its channel lands there. The page's own choice
 * (a channel opened) is told to the server, so that a regroup's end brings the member back to it.
 */
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { GetMyChannels, GetMySelectedChannel, type SelectedChannelChanged, SelectMyChannel } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
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
  const [notice, setNotice] = useState<SelectedChannelChanged | null>(null);

  const follow = (change: SelectedChannelChanged) => {
    setNotice(change);
    switchedTone();
    // The regroup's channel is new to the list: read again before the page looks for it.
    void queryClient.invalidateQueries({ queryKey: callKey(GetMyChannels) });
    navigate(change.channelId ? `/talk/${change.channelId}` : '/talk');
  };
  useServerEvent('selected_channel_changed', follow);

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

  const text = notice
    ? notice.reason === 'regroup_end'
      ? notice.channelName
        ? t('selected.regroupEnd', { channel: notice.channelName })
        : t('selected.regroupEndList')
      : t(notice.reason === 'regroup' ? 'selected.regroup' : 'selected.dispatcher', {
          channel: notice.channelName ?? '',
          name: notice.by.name,
        })
    : '';
  return (
    <Snackbar
      open={notice !== null}
      autoHideDuration={30_000}
      onClose={(_event, reason) => reason !== 'clickaway' && setNotice(null)}
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
    >
      <Alert severity="info" variant="filled" role="status" onClose={() => setNotice(null)} sx={{ width: '100%' }}>
        {text}
      </Alert>
    </Snackbar>
  );
}
