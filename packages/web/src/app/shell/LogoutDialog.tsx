/**
 * Logout (spec section 4): confirm ('Let me back' / "I'm, Sure"), call logout, clear the stored user, token
 * and room, and return to /signin. The session is cleared even when the call fails: the user asked to leave.
 */
import { Logout } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../api/client.ts';
import { clearSession, getSession } from '../../api/session.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';

export function LogoutDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const logout = async () => {
    const userId = getSession()?.user?.id;
    try {
      await api(Logout, userId ? { userId } : {});
    } catch {
      // An expired token or an unreachable server: signing out locally is still what the user wants.
    }
    clearSession();
    queryClient.clear();
    onClose();
    navigate('/signin', { replace: true });
  };

  return (
    <ConfirmDialog
      open={open}
      title={t('logout.title')}
      message={t('logout.message')}
      cancelLabel={t('logout.cancel')}
      confirmLabel={t('logout.confirm')}
      onConfirm={logout}
      onCancel={onClose}
    />
  );
}
