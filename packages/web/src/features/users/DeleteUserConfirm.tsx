/**
 * Confirmation before deleting a user (spec section 8): 'Voulez vous vraiment supprimer {name}', 'Yes, delete it!';
 * then 'the User has been deleted', or 'Oops...' / 'Something went wrong!' / 'Please try again'.
 * Props: `user` ({ id, firstName, lastName, display_name? }; null = closed), `onClose()`, optional `onDeleted()`.
 */
import { DeleteUser, displayNameOf, type User } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { useRefreshDirectory } from '../../api/directory.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { failureNotice } from '../../components/failureNotice.ts';
import { useNotify } from '../../components/Notifier.tsx';

export interface DeleteUserConfirmProps {
  user: (Pick<User, 'id' | 'firstName' | 'lastName'> & { display_name?: string }) | null;
  onClose: () => void;
  onDeleted?: () => void;
}

export function DeleteUserConfirm({ user, onClose, onDeleted }: DeleteUserConfirmProps) {
  const { t } = useTranslation(['users', 'common']);
  const notify = useNotify();
  const refresh = useRefreshDirectory();
  const name = user ? displayNameOf(user) : '';

  const remove = async () => {
    if (!user) return;
    try {
      await api(DeleteUser, { UserId: user.id });
      notify({ severity: 'success', message: t('users:delete.deleted') });
      await refresh();
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
      message={t('users:delete.message', { name })}
      confirmLabel={t('users:delete.confirm')}
      destructive
      onConfirm={remove}
      onCancel={onClose}
    />
  );
}
