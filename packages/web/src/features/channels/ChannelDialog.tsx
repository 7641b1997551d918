/**
 * Add Channel / Update Channel dialog (spec sections 2, 5 and 8): the name and a user selection table.
 * Props: `open`, `channel` (null or absent = create; a Channel = update it), `onClose()`, optional `onSaved(channel)`.
 * Create: createChannel then updateUserChannels with the chosen users. Update: updateChannel then
 * updateUserChannels. A blank name is refused with the check-fields text.
 */
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  type Channel,
  CreateChannel,
  isBlank,
  leftTrim,
  rtcSessionOf,
  UpdateChannel,
  UpdateUserChannels,
  type User,
} from '@talkgroup/protocol';
import type { MRT_ColumnDef } from 'material-react-table';
import { type FormEvent, useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../api/client.ts';
import { useRefreshDirectory, useUsers } from '../../api/directory.ts';
import { DialogAlert } from '../../components/DialogAlert.tsx';
import { type Notice, useNotify } from '../../components/Notifier.tsx';
import { SelectionTable } from '../../components/table/SelectionTable.tsx';
import { SELECTION_PAGE_SIZES } from '../../components/table/useConsoleTable.ts';

export interface ChannelDialogProps {
  open: boolean;
  channel?: Channel | null;
  onClose: () => void;
  onSaved?: (channel: Channel) => void;
}

type UserRow = Pick<User, 'id' | 'firstName' | 'lastName' | 'identifier' | 'pseudo'>;

export function ChannelDialog({ open, channel, onClose, onSaved }: ChannelDialogProps) {
  const { t } = useTranslation(['channels', 'users', 'common']);
  const notify = useNotify();
  const refresh = useRefreshDirectory();
  const users = useUsers();
  const titleId = useId();
  const fullScreen = useMediaQuery('(max-width:600px)');
  const editing = Boolean(channel);
  const [name, setName] = useState('');
  const [userIds, setUserIds] = useState<number[]>([]);
  const [blank, setBlank] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Notice | null>(null);

  useEffect(() => {
    if (!open) return;
    setName(channel?.name ?? '');
    setUserIds(channel?.users.map((user) => user.id) ?? []);
    setBlank(false);
    setProblem(null);
  }, [open, channel]);

  const rows = useMemo<UserRow[]>(
    () =>
      (users.data?.res ?? []).map(({ id, firstName, lastName, identifier, pseudo }) => ({
        id,
        firstName,
        lastName,
        identifier,
        pseudo,
      })),
    [users.data],
  );
  const columns = useMemo<MRT_ColumnDef<UserRow>[]>(
    () => [
      { accessorKey: 'firstName', header: t('users:columns.firstName') },
      { accessorKey: 'lastName', header: t('users:columns.lastName') },
      { accessorKey: 'identifier', header: t('users:columns.login') },
    ],
    [t],
  );
  const searchText = useCallback(
    (row: UserRow) => `${row.firstName}\n${row.lastName}\n${row.identifier}\n${row.pseudo}`,
    [],
  );

  const failed = editing ? t('channels:update.notUpdated') : t('channels:create.notCreated');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const channelName = leftTrim(name);
    setName(channelName);
    if (isBlank(channelName)) {
      setBlank(true);
      setProblem({ severity: 'error', title: failed, message: t('channels:form.checkFields') });
      return;
    }
    setBusy(true);
    try {
      const saved = channel
        ? (await api(UpdateChannel, { channelId: channel.id, channelName })).res
        : (await api(CreateChannel, { channelName, channelRtcSession: rtcSessionOf(channelName) })).res;
      const before = new Set(channel?.users.map((user) => user.id) ?? []);
      const changed = userIds.length !== before.size || userIds.some((id) => !before.has(id));
      if (changed) await api(UpdateUserChannels, { userList: userIds, channelId: saved.id });
      notify({
        severity: 'success',
        message: editing ? t('channels:update.updated') : t('channels:create.created'),
      });
      await refresh();
      onSaved?.(saved);
      onClose();
    } catch (error) {
      // Spec section 8: a name conflict says so; any other refusal says 'Error!'.
      const message =
        error instanceof ApiError && error.status === 409
          ? t('channels:update.nameTaken')
          : error instanceof ApiError && error.result
            ? error.result
            : t('channels:update.error');
      setProblem({ severity: 'error', title: failed, message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="md"
      fullWidth
      fullScreen={fullScreen}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{editing ? t('channels:update.title') : t('channels:create.title')}</DialogTitle>
        <DialogContent dividers>
          <DialogAlert notice={problem} />
          <Stack spacing={2.5}>
            <TextField
              label={t('channels:form.name')}
              required
              autoFocus
              autoComplete="off"
              value={name}
              error={blank && isBlank(name)}
              onChange={(event) => setName(event.target.value)}
            />
            <SelectionTable<UserRow>
              rows={rows}
              columns={columns}
              selected={userIds}
              onChange={setUserIds}
              searchText={searchText}
              title={t('channels:form.users')}
              summary={t('channels:form.usersHint', { count: userIds.length })}
              emptyText={t('channels:form.noUsers')}
              pageSizes={SELECTION_PAGE_SIZES}
              loading={users.isPending}
              search={{
                label: t('channels:toolbar.search'),
                placeholder: t('channels:toolbar.search'),
                clearLabel: t('channels:toolbar.clearSearch'),
              }}
            />
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2, gap: 1 }}>
          <Button onClick={onClose} disabled={busy} color="inherit" variant="outlined">
            {t('common:actions.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={busy}
            startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
          >
            {editing ? t('channels:update.submit') : t('channels:create.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
