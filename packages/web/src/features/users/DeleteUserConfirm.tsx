/**
 * Confirmation before deleting a user (spec section 8): 'Voulez vous vraiment supprimer {name}', 'Yes, delete it!';
 * then 'the User has been deleted', or 'Oops...' / 'Something went wrong!' / 'Please try again'.
 * Props: `user` ({ id, firstName, lastName, display_name? }; null = closed), `onClose()`, optional `onDeleted()`.
 */
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import { displayNameOf, type User } from '@talkgroup/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { failureNotice } from '../../components/failureNotice.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { useDeleteUser } from './api/deleteUser.ts';

export interface DeleteUserConfirmProps {
  user: (Pick<User, 'id' | 'firstName' | 'lastName'> & { display_name?: string }) | null;
  onClose: () => void;
  onDeleted?: () => void;
}

export function DeleteUserConfirm({ user, onClose, onDeleted }: DeleteUserConfirmProps) {
  const { t } = useTranslation(['users', 'common']);
  const notify = useNotify();
  const deleteUser = useDeleteUser();
  const name = user ? displayNameOf(user) : '';
  // Voice history: kept by default (attributed to a deleted user); the administrator may delete it too.
  const [withVoice, setWithVoice] = useState(false);
  useEffect(() => {
    if (user) setWithVoice(false);
  }, [user]);

  const remove = async () => {
    if (!user) return;
    try {
      await deleteUser.mutateAsync({ UserId: user.id, ...(withVoice ? { deleteVoiceMessages: true } : {}) });
      notify({ severity: 'success', message: t('users:delete.deleted') });
      onDeleted?.();
      onClose();
    } catch (error) {
      notify(failureNotice(t, error));
      onClose();
    }
  };

  return (
    <ConfirmDialog
      open={user !== null}
      title={t('common:confirm.title')}
      message={
        <>
          {t('users:delete.message', { name })}
          <FormControlLabel
            sx={{ display: 'flex', mt: 1 }}
            control={<Checkbox checked={withVoice} onChange={(event) => setWithVoice(event.target.checked)} />}
            label={t('users:delete.withVoice')}
          />
        </>
      }
      confirmLabel={t('users:delete.confirm')}
      destructive
      onConfirm={remove}
      onCancel={onClose}
    />
  );
}
