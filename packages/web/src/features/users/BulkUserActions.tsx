/**
 * Bulk actions on the users list (issue 17 point 11): with several rows ticked, add them to a channel, remove
 * them from a channel, disconnect them from all their devices, or delete them; one confirmation names how many.
 * Each is the spec's per-user call (addUserToChannel, deleteUserFromChannel, deleteUserTokens/, deleteUser),
 * a few at a time; the signed-in administrator is never deleted with the others.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { AddUserToChannel, DeleteUser, DeleteUserFromChannel, DeleteUserTokens } from '@talkgroup/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { useChannels, useRefreshDirectory } from '../../api/directory.ts';
import { getSession } from '../../api/session.ts';
import { useConfirm } from '../../components/ConfirmProvider.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import { failureNotice } from '../../components/failureNotice.ts';
import { useNotify } from '../../components/Notifier.tsx';

const AT_ONCE = 4;

/** Runs `task` for every user, AT_ONCE at a time; the first failure stops the rest and is thrown. */
async function forEach(userIds: number[], task: (userId: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < userIds.length; i += AT_ONCE) await Promise.all(userIds.slice(i, i + AT_ONCE).map(task));
}

type ChannelAction = 'add' | 'remove';

export interface BulkUserActionsProps {
  /** The ticked users (on every page of a paged table). */
  userIds: number[];
  onDone: () => void;
}

export function BulkUserActions({ userIds, onDone }: BulkUserActionsProps) {
  const { t } = useTranslation(['users', 'common']);
  const confirm = useConfirm();
  const notify = useNotify();
  const refresh = useRefreshDirectory();
  const channels = useChannels().data?.res ?? [];
  const [channelAction, setChannelAction] = useState<ChannelAction | null>(null);
  const [channelId, setChannelId] = useState<number | ''>('');
  const [busy, setBusy] = useState(false);
  const count = userIds.length;

  const run = async (task: () => Promise<void>, done: string) => {
    setBusy(true);
    try {
      await task();
      notify({ severity: 'success', message: done });
      onDone();
    } catch (error) {
      notify(failureNotice(t, error));
    } finally {
      setBusy(false);
      void refresh();
    }
  };

  const onChannel = async () => {
    if (channelId === '' || !channelAction) return;
    const channel = channels.find((c) => c.id === channelId);
    const call = channelAction === 'add' ? AddUserToChannel : DeleteUserFromChannel;
    await run(
      () => forEach(userIds, (userId) => api(call, { userId, channelId })),
      t(channelAction === 'add' ? 'users:bulk.added' : 'users:bulk.removed', { count, channel: channel?.name ?? '' }),
    );
    setChannelAction(null);
    setChannelId('');
  };

  const disconnect = async () => {
    const ok = await confirm({
      title: t('common:confirm.title'),
      message: t('users:bulk.confirmDisconnect', { count }),
      confirmLabel: t('users:bulk.disconnect'),
    });
    if (ok)
      await run(
        () => forEach(userIds, (userId) => api(DeleteUserTokens, { userId })),
        t('users:bulk.disconnected', { count }),
      );
  };

  const remove = async () => {
    const self = getSession()?.user?.id;
    const targets = userIds.filter((userId) => userId !== self);
    const ok = await confirm({
      title: t('common:confirm.title'),
      message: t('users:bulk.confirmDelete', { count: targets.length }),
      confirmLabel: t('users:bulk.delete', { count: targets.length }),
      destructive: true,
    });
    if (ok)
      await run(
        () => forEach(targets, (userId) => api(DeleteUser, { UserId: userId })),
        t('users:bulk.deleted', { count: targets.length }),
      );
  };

  return (
    <Box
      role="region"
      aria-label={t('users:bulk.label')}
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: 1,
        px: 2,
        py: 1,
        mb: 1.5,
        borderRadius: 2,
        bgcolor: 'rgba(11, 79, 138, 0.08)',
      }}
    >
      <Typography sx={{ fontWeight: 600, mr: 1 }} role="status">
        {t('users:bulk.selected', { count })}
      </Typography>
      <Button disabled={busy} variant="outlined" onClick={() => setChannelAction('add')}>
        {t('users:bulk.addToChannel')}
      </Button>
      <Button disabled={busy} variant="outlined" onClick={() => setChannelAction('remove')}>
        {t('users:bulk.removeFromChannel')}
      </Button>
      <Button disabled={busy} variant="outlined" onClick={() => void disconnect()}>
        {t('users:bulk.disconnect')}
      </Button>
      <Button disabled={busy} variant="outlined" color="error" onClick={() => void remove()}>
        {t('users:bulk.delete', { count })}
      </Button>
      <Button disabled={busy} onClick={onDone}>
        {t('users:bulk.clear')}
      </Button>

      <FormDialog
        open={channelAction !== null}
        title={t(channelAction === 'remove' ? 'users:bulk.removeTitle' : 'users:bulk.addTitle', { count })}
        onClose={() => setChannelAction(null)}
        busy={busy}
        maxWidth="xs"
        actions={
          <>
            <Button onClick={() => setChannelAction(null)} color="inherit" variant="outlined">
              {t('common:actions.cancel')}
            </Button>
            <Button variant="contained" disabled={channelId === '' || busy} onClick={() => void onChannel()}>
              {t(channelAction === 'remove' ? 'users:bulk.removeFromChannel' : 'users:bulk.addToChannel')}
            </Button>
          </>
        }
      >
        <TextField
          select
          fullWidth
          label={t('users:bulk.channel')}
          value={channelId}
          onChange={(event) => setChannelId(Number(event.target.value))}
          sx={{ mt: 1 }}
        >
          {channels.map((channel) => (
            <MenuItem key={channel.id} value={channel.id}>
              {channel.name}
            </MenuItem>
          ))}
        </TextField>
      </FormDialog>
    </Box>
  );
}
