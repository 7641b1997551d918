/**
 * Search User dialog (spec sections 2, 4 and 8): every user, with an add/remove toggle for one channel.
 * Props: `open`, `channel` ({ id, name }; null = closed), `onClose()`.
 * The toggle reads the channel's members (getUsersInChannel); 'Are you sure?' first, then addUserToChannel or
 * deleteUserFromChannel: 'User Added To Channel' / 'User Deleted from Channel' (failure 'User not deleted').
 */
import PersonAddIcon from '@mui/icons-material/PersonAddAlt1';
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import DialogContentText from '@mui/material/DialogContentText';
import {
  AddUserToChannel,
  type Channel,
  DeleteUserFromChannel,
  displayNameOf,
  GetUsersInChannel,
  type UserSortField,
} from '@talkgroup/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MRT_ColumnDef, MRT_Row } from 'material-react-table';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../api/client.ts';
import { refreshDirectory } from '../../api/directory.ts';
import { useApiQuery } from '../../api/queries.ts';
import { useConfirm } from '../../components/ConfirmProvider.tsx';
import { DialogAlert } from '../../components/DialogAlert.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import type { Notice } from '../../components/Notifier.tsx';
import { ConsoleTable } from '../../components/table/ConsoleTable.tsx';
import { PAGE_SIZES } from '../../components/table/useConsoleTable.ts';
import { useUserTable } from '../../components/table/useUserTable.ts';

export interface SearchUserDialogProps {
  open: boolean;
  channel: Pick<Channel, 'id' | 'name'> | null;
  onClose: () => void;
}

/** The server's sort field of each column, when the users are paged on the server (issue 18). */
const SORT_FIELDS: Partial<Record<string, UserSortField>> = {
  firstName: 'firstName',
  lastName: 'lastName',
  identifier: 'identifier',
};

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
  const shown = open && channel !== null;
  return (
    <FormDialog
      open={shown}
      title={t('channels:members.title', { name: channel?.name ?? '' })}
      onClose={onClose}
      actionsSx={{ px: 3, py: 2 }}
      actions={
        <Button onClick={onClose} variant="contained">
          {t('common:actions.close')}
        </Button>
      }
    >
      <DialogContentText sx={{ mb: 2 }}>{t('channels:members.subtitle')}</DialogContentText>
      {shown ? <MembersTable channel={channel} /> : null}
    </FormDialog>
  );
}

/** addUserToChannel or deleteUserFromChannel (spec section 8), then every list of members reloads. */
function useToggleMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, channelId, member }: { userId: number; channelId: number; member: boolean }) =>
      member ? api(DeleteUserFromChannel, { userId, channelId }) : api(AddUserToChannel, { userId, channelId }),
    onSuccess: () => refreshDirectory(queryClient),
  });
}

function MembersTable({ channel }: { channel: Pick<Channel, 'id' | 'name'> }) {
  const { t } = useTranslation(['channels', 'users', 'common']);
  const confirm = useConfirm();
  const toggleMember = useToggleMember();
  const users = useUserTable('list', PAGE_SIZES, SORT_FIELDS);
  const members = useApiQuery(GetUsersInChannel, { channelId: channel.id });
  // The dialog is modal: its outcome is said inside it, not in the page's snackbar.
  const [outcome, setOutcome] = useState<Notice | null>(null);

  const memberIds = useMemo(() => new Set((members.data?.res ?? []).map((user) => user.id)), [members.data]);
  const rows = useMemo<MemberRow[]>(
    () =>
      users.users.map((user) => ({
        id: user.id,
        firstName: user.firstName,
        lastName: user.lastName,
        identifier: user.identifier,
        pseudo: user.pseudo,
        name: displayNameOf(user),
        member: memberIds.has(user.id),
      })),
    [users.users, memberIds],
  );
  const searchText = useCallback(
    (row: MemberRow) => `${row.firstName}\n${row.lastName}\n${row.identifier}\n${row.pseudo}`,
    [],
  );
  const toggle = async (row: MemberRow) => {
    const values = { user: row.name, channel: channel.name };
    const ok = await confirm({
      title: t('common:confirm.title'),
      message: row.member ? t('channels:members.confirmRemove', values) : t('channels:members.confirmAdd', values),
      confirmLabel: row.member ? t('channels:members.remove') : t('channels:members.add'),
      destructive: row.member,
    });
    if (!ok) return;
    setOutcome(null);
    try {
      await toggleMember.mutateAsync({ userId: row.id, channelId: channel.id, member: row.member });
      setOutcome({
        severity: 'success',
        message: row.member ? t('channels:members.removed') : t('channels:members.added'),
      });
    } catch (error) {
      setOutcome({
        severity: 'error',
        title: row.member ? t('channels:members.notRemoved') : t('channels:members.notAdded'),
        message: errorMessage(error, t('common:errors.tryAgain')),
      });
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

  return (
    <>
      <DialogAlert notice={outcome} />
      <ConsoleTable<MemberRow>
        rows={rows}
        columns={columns}
        searchText={searchText}
        dense
        query={{ ...users.query, isPending: users.query.isPending || members.isPending }}
        server={users.server}
        texts={{
          search: {
            label: t('users:toolbar.searchLabel'),
            placeholder: t('users:toolbar.search'),
            clearLabel: t('users:toolbar.clearSearch'),
          },
          empty: t('users:empty'),
        }}
        rowActions={{
          header: t('users:columns.actions'),
          size: 130,
          render: (row) => (
            <Button
              size="small"
              variant={row.member ? 'outlined' : 'contained'}
              color={row.member ? 'error' : 'primary'}
              disabled={toggleMember.isPending || members.isPending}
              startIcon={row.member ? <PersonRemoveIcon /> : <PersonAddIcon />}
              aria-label={
                row.member
                  ? t('channels:members.removeLabel', { user: row.name })
                  : t('channels:members.addLabel', { user: row.name })
              }
              onClick={() => toggle(row)}
              sx={{ whiteSpace: 'nowrap' }}
            >
              {row.member ? t('channels:members.remove') : t('channels:members.add')}
            </Button>
          ),
        }}
      />
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
