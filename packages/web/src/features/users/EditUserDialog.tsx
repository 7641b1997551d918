/**
 * Edit User Profile (spec sections 2, 4, 5 and 8). Props: `user` (the user to edit; null = closed), `onClose()`,
 * optional `variant` ('full' | 'dashboard': the dashboard's channel table also offers ALL rows) and `onUpdated()`.
 * Opening it first asks for the administrator's password (AdminPasswordDialog); then the form, login read-only,
 * channels pre-selected. Saves with updateUserData then updateChannelUsers. Also 'Disconnect from all devices'
 * (deleteUserTokens/).
 */
import LogoutIcon from '@mui/icons-material/Logout';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { displayNameOf, type User } from '@talkgroup/protocol';
import { useEffect, useMemo, useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { useChannels } from '../../api/directory.ts';
import { getSession, useSession } from '../../api/session.ts';
import { CancelButton, FormDialog, SubmitButton } from '../../components/FormDialog.tsx';
import { type Notice, useNotify } from '../../components/Notifier.tsx';
import { ALL_ROWS, PAGE_SIZES } from '../../components/table/useConsoleTable.ts';
import { AdminPasswordDialog } from './AdminPasswordDialog.tsx';
import { useDisconnectUser } from './api/disconnectUser.ts';
import { useUpdateUser } from './api/updateUser.ts';
import { UserFormFields } from './UserFormFields.tsx';
import { formOfUser } from './userForm.ts';
import { useUserForm } from './useUserForm.ts';

export interface EditUserDialogProps {
  user: User | null;
  onClose: () => void;
  variant?: 'full' | 'dashboard';
  onUpdated?: () => void;
}

export function EditUserDialog({ user, onClose, variant = 'full', onUpdated }: EditUserDialogProps) {
  const [verifiedFor, setVerifiedFor] = useState<number | null>(null);
  // The administrator's own password, verified by the gate: the server asks it to change one's own password.
  const [gatePassword, setGatePassword] = useState('');
  useEffect(() => {
    if (!user) {
      setVerifiedFor(null);
      setGatePassword('');
    }
  }, [user]);
  if (!user) return null;
  if (verifiedFor !== user.id)
    return (
      <AdminPasswordDialog
        open
        targetName={displayNameOf(user)}
        onVerified={(password) => {
          setGatePassword(password);
          setVerifiedFor(user.id);
        }}
        onCancel={onClose}
      />
    );
  return (
    <EditUserForm
      key={user.id}
      user={user}
      variant={variant}
      onClose={onClose}
      onUpdated={onUpdated}
      currentPassword={user.id === getSession()?.user?.id ? gatePassword : undefined}
    />
  );
}

function EditUserForm({
  user,
  variant,
  onClose,
  onUpdated,
  currentPassword,
}: {
  user: User;
  currentPassword?: string;
  variant: 'full' | 'dashboard';
  onClose: () => void;
  onUpdated?: () => void;
}) {
  const { t } = useTranslation(['users', 'common']);
  const notify = useNotify();
  const channels = useChannels();
  const update = useUpdateUser();
  const disconnect = useDisconnectUser();
  const pageSizes = useMemo(
    () =>
      variant === 'dashboard'
        ? [
            ...PAGE_SIZES.map((size) => ({ label: String(size), value: size })),
            { label: t('users:edit.all'), value: ALL_ROWS },
          ]
        : PAGE_SIZES,
    [variant, t],
  );

  const [problem, setProblem] = useState<Notice | null>(null);
  const refuse = (message: string) => setProblem({ severity: 'error', title: t('users:edit.notUpdated'), message });
  const [initial] = useState(() => formOfUser(user));
  const { form, submitWith } = useUserForm('edit', initial, (key) => refuse(t(`users:${key}` as never)));
  const busy = update.isPending || disconnect.isPending;
  const ownAccount = useSession()?.user?.id === user.id;

  const submit = submitWith(async (form) => {
    if (busy) return;
    try {
      await update.mutateAsync({
        user: {
          id: user.id,
          firstName: form.firstName,
          lastName: form.lastName,
          pseudo: form.pseudo,
          mapRight: form.mapRight,
          // Nobody changes their own role (the server refuses it too).
          ...(ownAccount ? {} : { role: form.role }),
          talkPriority: form.talkPriority,
          ...(form.password.trim() ? { password: form.password, ...(currentPassword ? { currentPassword } : {}) } : {}),
        },
        channelIds: form.channelIds,
      });
      notify({ severity: 'success', message: t('users:edit.updated') });
      onUpdated?.();
      onClose();
    } catch (error) {
      refuse(errorMessage(error, t('common:errors.somethingWrong')));
    }
  });

  const disconnectAll = () =>
    disconnect.mutate(
      { userId: user.id },
      {
        onSuccess: () => setProblem({ severity: 'success', message: t('users:edit.disconnected') }),
        onError: () => setProblem({ severity: 'error', message: t('users:edit.disconnectFailed') }),
      },
    );

  return (
    <FormDialog
      open
      title={t('users:edit.title')}
      onClose={onClose}
      busy={busy}
      onSubmit={submit}
      notice={problem}
      actionsSx={{ px: 3, py: 2, gap: 1, flexWrap: 'wrap' }}
      actions={
        <>
          <Button
            onClick={disconnectAll}
            disabled={busy}
            color="warning"
            startIcon={
              disconnect.isPending ? <CircularProgress size={16} color="inherit" aria-hidden /> : <LogoutIcon />
            }
          >
            {t('users:edit.disconnect')}
          </Button>
          <Box sx={{ flex: 1 }} />
          <CancelButton onClick={onClose} disabled={busy} />
          <SubmitButton busy={update.isPending} disabled={busy}>
            {t('users:edit.submit')}
          </SubmitButton>
        </>
      }
    >
      <FormProvider {...form}>
        <UserFormFields
          mode="edit"
          ownAccount={ownAccount}
          channels={channels.data?.res ?? []}
          channelsLoading={channels.isPending}
          pageSizes={pageSizes}
        />
      </FormProvider>
    </FormDialog>
  );
}
