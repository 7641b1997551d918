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
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import useMediaQuery from '@mui/material/useMediaQuery';
import { DeleteUserTokens, displayNameOf, UpdateChannelUsers, UpdateUserData, type User } from '@talkgroup/protocol';
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../api/client.ts';
import { useChannels, useRefreshDirectory } from '../../api/directory.ts';
import { DialogAlert } from '../../components/DialogAlert.tsx';
import { type Notice, useNotify } from '../../components/Notifier.tsx';
import { ALL_ROWS, PAGE_SIZES } from '../../components/table/useConsoleTable.ts';
import { AdminPasswordDialog } from './AdminPasswordDialog.tsx';
import { UserFormFields } from './UserFormFields.tsx';
import { formOfUser, hasBlankRequired, leftTrimmed, passwordsDiffer, type UserFormValues } from './userForm.ts';

export interface EditUserDialogProps {
  user: User | null;
  onClose: () => void;
  variant?: 'full' | 'dashboard';
  onUpdated?: () => void;
}

export function EditUserDialog({ user, onClose, variant = 'full', onUpdated }: EditUserDialogProps) {
  const [verifiedFor, setVerifiedFor] = useState<number | null>(null);
  useEffect(() => {
    if (!user) setVerifiedFor(null);
  }, [user]);
  if (!user) return null;
  if (verifiedFor !== user.id)
    return (
      <AdminPasswordDialog
        open
        targetName={displayNameOf(user)}
        onVerified={() => setVerifiedFor(user.id)}
        onCancel={onClose}
      />
    );
  return <EditUserForm key={user.id} user={user} variant={variant} onClose={onClose} onUpdated={onUpdated} />;
}

function EditUserForm({
  user,
  variant,
  onClose,
  onUpdated,
}: {
  user: User;
  variant: 'full' | 'dashboard';
  onClose: () => void;
  onUpdated?: () => void;
}) {
  const { t } = useTranslation(['users', 'common']);
  const notify = useNotify();
  const refresh = useRefreshDirectory();
  const titleId = useId();
  const fullScreen = useMediaQuery('(max-width:600px)');
  const channels = useChannels();
  const [values, setValues] = useState<UserFormValues>(() => formOfUser(user));
  const [showBlank, setShowBlank] = useState(false);
  const [busy, setBusy] = useState<'save' | 'disconnect' | null>(null);
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

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const form = leftTrimmed(values);
    setValues(form);
    if (hasBlankRequired(form, 'edit')) {
      setShowBlank(true);
      refuse(t('users:validation.checkFields'));
      return;
    }
    if (passwordsDiffer(form)) {
      refuse(t('users:validation.mismatch'));
      return;
    }
    setBusy('save');
    try {
      await api(UpdateUserData, {
        id: user.id,
        firstName: form.firstName,
        lastName: form.lastName,
        pseudo: form.pseudo,
        mapRight: form.mapRight,
        ...(form.password.trim() ? { password: form.password } : {}),
      });
      await api(UpdateChannelUsers, { userId: user.id, channelList: form.channelIds });
      notify({ severity: 'success', message: t('users:edit.updated') });
      await refresh();
      onUpdated?.();
      onClose();
    } catch (error) {
      refuse(errorMessage(error, t('common:errors.somethingWrong')));
    } finally {
      setBusy(null);
    }
  };

  const disconnect = async () => {
    setBusy('disconnect');
    try {
      await api(DeleteUserTokens, { userId: user.id });
      setProblem({ severity: 'success', message: t('users:edit.disconnected') });
      await refresh();
    } catch {
      setProblem({ severity: 'error', message: t('users:edit.disconnectFailed') });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="md"
      fullWidth
      fullScreen={fullScreen}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{t('users:edit.title')}</DialogTitle>
        <DialogContent dividers>
          <DialogAlert notice={problem} />
          <UserFormFields
            mode="edit"
            values={values}
            onChange={setValues}
            channels={channels.data?.res ?? []}
            channelsLoading={channels.isPending}
            pageSizes={pageSizes}
            showBlank={showBlank}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2, gap: 1, flexWrap: 'wrap' }}>
          <Button
            onClick={disconnect}
            disabled={busy !== null}
            color="warning"
            startIcon={
              busy === 'disconnect' ? <CircularProgress size={16} color="inherit" aria-hidden /> : <LogoutIcon />
            }
          >
            {t('users:edit.disconnect')}
          </Button>
          <Box sx={{ flex: 1 }} />
          <Button onClick={onClose} disabled={busy !== null} color="inherit" variant="outlined">
            {t('common:actions.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={busy !== null}
            startIcon={busy === 'save' ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
          >
            {t('users:edit.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
