/**
 * The user's recent private calls (made or received), each with how it went and, once answered, its
 * transmissions played back from the call's voice history (the hidden channel both parties may read).
 */
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { GetChannelVoiceMessages, GetPrivateCalls, type PrivateCall } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { callKey, useApiQuery } from '../../api/queries.ts';
import { useServerEvent } from '../../api/serverEvents.ts';
import { useSession } from '../../api/session.ts';
import { formatDate } from '../../i18n/dates.ts';
import { playVoiceMessages } from '../voice/index.ts';

/** The call's transmissions: its pair's voice history between its answer and its end. */
async function playCall(call: PrivateCall): Promise<void> {
  const { res } = await api(GetChannelVoiceMessages, { channelId: call.channelId, limit: 200 });
  const from = Date.parse(call.answeredAt ?? call.startedAt);
  const to = call.endedAt ? Date.parse(call.endedAt) : Number.POSITIVE_INFINITY;
  playVoiceMessages(
    res.filter((item) => Date.parse(item.createdAt) >= from - 1000 && Date.parse(item.createdAt) <= to),
  );
}

export function CallHistory() {
  const { t, i18n } = useTranslation('calls');
  const selfId = useSession()?.user?.id;
  const client = useQueryClient();
  const calls = useApiQuery(GetPrivateCalls, { limit: 10 });
  useServerEvent('privateCallUpdated', () => void client.invalidateQueries({ queryKey: callKey(GetPrivateCalls) }));
  const items = calls.data?.res ?? [];
  return (
    <Paper component="section" aria-labelledby="call-history-title" variant="outlined" sx={{ p: 2, borderRadius: 3 }}>
      <Typography id="call-history-title" component="h2" variant="h6">
        {t('history.title')}
      </Typography>
      {items.length === 0 ? (
        <Typography sx={{ color: 'text.secondary', mt: 1 }}>{t('history.empty')}</Typography>
      ) : (
        <List dense aria-label={t('history.title')}>
          {items.map((call) => {
            const other = call.caller.userId === selfId ? call.callee.name : call.caller.name;
            const text = t(call.caller.userId === selfId ? 'history.to' : 'history.from', {
              name: other,
              time: formatDate(call.startedAt, 'dd MMM HH:mm', i18n.resolvedLanguage),
              state: t(`history.state.${call.state}`),
            });
            return (
              <ListItem
                key={call.callId}
                disableGutters
                secondaryAction={
                  call.answeredAt && call.state === 'ended' ? (
                    <IconButton
                      edge="end"
                      aria-label={t('history.play', { call: text })}
                      onClick={() => void playCall(call)}
                    >
                      <PlayArrowIcon />
                    </IconButton>
                  ) : null
                }
              >
                <ListItemText primary={text} />
              </ListItem>
            );
          })}
        </List>
      )}
    </Paper>
  );
}
