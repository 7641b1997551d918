/**
 * Search User dialog (spec sections 2, 4 and 8): every user, with an add/remove toggle for one channel.
 * Props: `open`, `channel` ({ id, name }; null = closed), `onClose()`.
 * The toggle reads the channel's members (getUsersInChannel); 'Are you sure?' first, then addUserToChannel or
 * deleteUserFromChannel: 'User Added To Channel' / 'User Deleted from Channel' (failure 'User not deleted').
 */
import PersonAddIcon from '@mui/icons-material/PersonAddAlt1';
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  AddUserToChannel,
  type Channel,
  DeleteUserFromChannel,
  displayNameOf,
  GetUsersInChannel,
} from '@talkgroup/protocol';
import { MaterialReactTable, type MRT_ColumnDef, type MRT_Row } from 'material-react-table';
import { useCallback, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../api/client.ts';
import { useRefreshDirectory, useUsers } from '../../api/directory.ts';
import { useApiQuery } from '../../api/queries.ts';
import { useConfirm } from '../../components/ConfirmProvider.tsx';
import { DialogAlert } from '../../components/DialogAlert.tsx';
import type { Notice } from '../../components/Notifier.tsx';
import { SearchField } from '../../components/table/SearchField.tsx';
import { useConsoleTable } from '../../components/table/useConsoleTable.ts';

export interface SearchUserDialogProps {
  open: boolean;
  channel: Pick<Channel, 'id' | 'name'> | null;
  onClose: () => void;
}

interface MemberRow {
  id: number;
  firstName: string;
  lastName: string;
  identifier: string;
  pseudo: string;
  name: string;
  member: boolean;
}

export function SearchUserDialog({ open, channel, onClose }: SearchUserDialogProps) {
  const { t } = useTranslation(['channels', 'users', 'common']);
  const titleId = useId();
  const fullScreen = useMediaQuery('(max-width:600px)');
  const shown = open && channel !== null;
  return (
    <Dialog open={shown} onClose={onClose} aria-labelledby={titleId} maxWidth="md" fullWidth fullScreen={fullScreen}>
      <DialogTitle id={titleId}>{t('channels:members.title', { name: channel?.name ?? '' })}</DialogTitle>
      <DialogContent dividers>
        <DialogContentText sx={{ mb: 2 }}>{t('channels:members.subtitle')}</DialogContentText>
        {shown ? <MembersTable channel={channel} /> : null}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} variant="contained">
          {t('common:actions.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

function MembersTable({ channel }: { channel: Pick<Channel, 'id' | 'name'> }) {
  const { t } = useTranslation(['channels', 'users', 'common']);
  const confirm = useConfirm();
  const refresh = useRefreshDirectory();
  const users = useUsers();
  const members = useApiQuery(GetUsersInChannel, { channelId: channel.id });
  const [pending, setPending] = useState<number | null>(null);
  // The dialog is modal: its outcome is said inside it, not in the page's snackbar.
  const [outcome, setOutcome] = useState<Notice | null>(null);

  const memberIds = useMemo(() => new Set((members.data?.res ?? []).map((user) => user.id)), [members.data]);
  const rows = useMemo<MemberRow[]>(
    () =>
      (users.data?.res ?? []).map((user) => ({
        id: user.id,
        firstName: user.firstName,
        lastName: user.lastName,
        identifier: user.identifier,
        pseudo: user.pseudo,
        name: displayNameOf(user),
        member: memberIds.has(user.id),
      })),
    [users.data, memberIds],
  );
  const searchText = useCallback(
    (row: MemberRow) => `${row.firstName}\n${row.lastName}\n${row.identifier}\n${row.pseudo}`,
    [],
  );
  const [query, setQuery] = useState('');

  const toggle = async (row: MemberRow) => {
    const values = { user: row.name, channel: channel.name };
    const ok = await confirm({
      title: t('common:confirm.title'),
      message: row.member ? t('channels:members.confirmRemove', values) : t('channels:members.confirmAdd', values),
      confirmLabel: row.member ? t('channels:members.remove') : t('channels:members.add'),
      destructive: row.member,
    });
    if (!ok) return;
    setPending(row.id);
    setOutcome(null);
    try {
      if (row.member) await api(DeleteUserFromChannel, { userId: row.id, channelId: channel.id });
      else await api(AddUserToChannel, { userId: row.id, channelId: channel.id });
      setOutcome({
        severity: 'success',
        message: row.member ? t('channels:members.removed') : t('channels:members.added'),
      });
      await refresh();
    } catch (error) {
      setOutcome({
        severity: 'error',
        title: row.member ? t('channels:members.notRemoved') : t('channels:members.notAdded'),
        message: errorMessage(error, t('common:errors.tryAgain')),
      });
    } finally {
      setPending(null);
    }
  };

  const columns = useMemo<MRT_ColumnDef<MemberRow>[]>(
    () => [
      { accessorKey: 'firstName', header: t('users:columns.firstName') },
      { accessorKey: 'lastName', header: t('users:columns.lastName') },
      { accessorKey: 'identifier', header: t('users:columns.login') },
      { accessorKey: 'member', header: t('channels:members.member'), size: 90, Cell: memberCell },
    ],
    [t],
  );

  const table = useConsoleTable<MemberRow>({
    columns,
    data: rows,
    search: { query, textOf: searchText },
    getRowId: (row) => String(row.id),
    enableRowActions: true,
    displayColumnDefOptions: { 'mrt-row-actions': { header: t('users:columns.actions'), size: 130 } },
    renderRowActions: ({ row }) => (
      <Button
        size="small"
        variant={row.original.member ? 'outlined' : 'contained'}
        color={row.original.member ? 'error' : 'primary'}
        disabled={pending !== null || members.isPending}
        startIcon={row.original.member ? <PersonRemoveIcon /> : <PersonAddIcon />}
        aria-label={
          row.original.member
            ? t('channels:members.removeLabel', { user: row.original.name })
            : t('channels:members.addLabel', { user: row.original.name })
        }
        onClick={() => toggle(row.original)}
        sx={{ whiteSpace: 'nowrap' }}
      >
        {row.original.member ? t('channels:members.remove') : t('channels:members.add')}
      </Button>
    ),
    state: { isLoading: users.isPending || members.isPending },
    initialState: { density: 'compact' },
    renderTopToolbarCustomActions: () => (
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', width: '100%' }}>
        <SearchField
          value={query}
          onChange={setQuery}
          label={t('users:toolbar.searchLabel')}
          placeholder={t('users:toolbar.search')}
          clearLabel={t('users:toolbar.clearSearch')}
        />
      </Box>
    ),
    renderEmptyRowsFallback: () => (
      <Typography sx={{ p: 3, textAlign: 'center', color: 'text.secondary' }}>{t('users:empty')}</Typography>
    ),
  });
  return (
    <>
      <DialogAlert notice={outcome} />
      <MaterialReactTable table={table} />
    </>
  );
}

function MemberChip({ member }: { member: boolean }) {
  const { t } = useTranslation('channels');
  return (
    <Chip
      size="small"
      color={member ? 'success' : 'default'}
      variant={member ? 'filled' : 'outlined'}
      label={member ? t('members.yes') : t('members.no')}
    />
  );
}

// MRT calls cell renderers as functions: this one stays outside the component.
const memberCell = ({ row }: { row: MRT_Row<MemberRow> }) => <MemberChip member={row.original.member} />;
