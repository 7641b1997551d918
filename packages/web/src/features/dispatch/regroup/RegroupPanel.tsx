/**
 * Regroups (issue 59) on the dispatch console: "Regrouper" opens the dialog; the open regroups are listed, each
 * with its members, when it ends by itself, and "Terminer", which asks first (issue 70: one click ended an
 * incident's group) and then brings its members back to their channels.
 */
import GroupsIcon from '@mui/icons-material/GroupsOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { EndRegroup, GetRegroups, type Regroup } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { format } from 'date-fns';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/client.ts';
import { callKey, useApiMutation, useApiQuery } from '../../../api/queries.ts';
import { useServerEvent } from '../../../api/serverEvents.ts';
import { useConfirm } from '../../../components/ConfirmProvider.tsx';
import { RegroupDialog } from './RegroupDialog.tsx';
import type { RegroupPicks } from './RegroupPickButton.tsx';

/** The members picked on the map for the next regroup (the page holds them for the map and the panel). */
export function useRegroupPicks(): RegroupPicks & { clear(): void } {
  const [picked, setPicked] = useState<ReadonlySet<number>>(() => new Set());
  const toggle = useCallback(
    (userId: number) =>
      setPicked((current) => {
        const next = new Set(current);
        if (!next.delete(userId)) next.add(userId);
        return next;
      }),
    [],
  );
  const clear = useCallback(() => setPicked(new Set()), []);
  return useMemo(() => ({ picked, toggle, clear }), [picked, toggle, clear]);
}

export function RegroupPanel({
  channels,
  selfId,
  picks,
  onRegrouped,
}: {
  channels: Array<{ id: number; name: string }>;
  selfId: number;
  picks: RegroupPicks & { clear(): void };
  /** The new regroup's channel: the page monitors and selects it. */
  onRegrouped: (channelId: number) => void;
}) {
  const { t } = useTranslation('dispatch');
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const regroups = useApiQuery(GetRegroups, {}, { refetchInterval: 30_000 });
  const refresh = () => client.invalidateQueries({ queryKey: callKey(GetRegroups) });
  useServerEvent('regroupsChanged', () => void refresh());
  const end = useApiMutation(EndRegroup, { onSettled: refresh });
  const list = regroups.data?.res ?? [];
  const confirm = useConfirm();
  const askToEnd = async (regroup: Regroup) => {
    const ok = await confirm({
      title: t('regroup.endTitle', { name: regroup.name }),
      // Those it brings back: everyone in it but the one who made it.
      message: t('regroup.endConfirm', {
        count: Math.max(1, regroup.members.filter((member) => member.userId !== regroup.createdBy.userId).length),
      }),
      confirmLabel: t('regroup.end'),
      destructive: true,
    });
    if (ok) end.mutate({ regroupId: regroup.regroupId });
  };

  return (
    <Paper
      component="section"
      aria-labelledby="regroups-title"
      variant="outlined"
      sx={{ p: 2, borderRadius: 3, mb: 3 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography id="regroups-title" component="h2" variant="h6" sx={{ flex: 1 }}>
          {t('regroup.panel')}
        </Typography>
        <Button variant="outlined" startIcon={<GroupsIcon />} onClick={() => setOpen(true)}>
          {picks.picked.size > 0 ? t('regroup.openPicked', { count: picks.picked.size }) : t('regroup.open')}
        </Button>
      </Box>
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
        {t('regroup.help')}
      </Typography>
      {end.error ? (
        <Alert severity="warning" sx={{ mt: 1 }}>
          {errorMessage(end.error, t('regroup.endFailed'))}
        </Alert>
      ) : null}
      {list.length === 0 ? (
        <Typography sx={{ color: 'text.secondary', mt: 1 }}>{t('regroup.empty')}</Typography>
      ) : (
        <List dense aria-label={t('regroup.openList')}>
          {list.map((regroup) => (
            <ListItem
              key={regroup.regroupId}
              disableGutters
              secondaryAction={
                <Button
                  size="small"
                  color="warning"
                  disabled={end.isPending}
                  onClick={() => void askToEnd(regroup)}
                  aria-label={t('regroup.endNamed', { name: regroup.name })}
                >
                  {t('regroup.end')}
                </Button>
              }
            >
              <ListItemText
                primary={regroup.name}
                secondary={t('regroup.detail', {
                  members: regroup.members.map((member) => member.name).join(', '),
                  until: format(new Date(regroup.expiresAt), 'HH:mm'),
                })}
              />
            </ListItem>
          ))}
        </List>
      )}
      <RegroupDialog
        open={open}
        channels={channels}
        selfId={selfId}
        initialUserIds={[...picks.picked]}
        onClose={() => setOpen(false)}
        onCreated={(channelId) => {
          setOpen(false);
          picks.clear();
          onRegrouped(channelId);
          void refresh();
        }}
      />
    </Paper>
  );
}
