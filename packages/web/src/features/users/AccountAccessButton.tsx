/**
 * An administrator's row action (issue 38): "Disable the account of {name}" turns an account off without deleting
 * it (asked once: its sessions end at once and no sign-in opens one); "Enable the account of {name}" turns it on
 * again. Not offered on one's own row (the server refuses it too). The server audits both.
 */
import LockOpenOutlined from '@mui/icons-material/LockOpenOutlined';
import PersonOffOutlined from '@mui/icons-material/PersonOffOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { SetUserDisabled } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../api/queries.ts';
import { useSession } from '../../api/session.ts';
import { useConfirm } from '../../components/ConfirmProvider.tsx';
import { failureNotice } from '../../components/failureNotice.ts';
import { useNotify } from '../../components/Notifier.tsx';

export function AccountAccessButton({ userId, name, disabled }: { userId: number; name: string; disabled: boolean }) {
  const { t } = useTranslation(['users', 'common']);
  const confirm = useConfirm();
  const notify = useNotify();
  const own = useSession()?.user?.id === userId;
  const change = useApiMutation(SetUserDisabled, {
    onSuccess: (_answer, body) =>
      notify({
        severity: 'success',
        message: t(body.disabled ? 'users:access.disabledDone' : 'users:access.enabledDone', { name }),
      }),
    onError: (error) => notify(failureNotice(t, error)),
  });
  if (own) return null;
  const label = t(disabled ? 'users:access.enable' : 'users:access.disable', { name });
  const act = async () => {
    if (disabled) {
      change.mutate({ userId, disabled: false });
      return;
    }
    const ok = await confirm({
      title: t('common:confirm.title'),
      message: t('users:access.confirm', { name }),
      confirmLabel: t('users:access.confirmLabel'),
      destructive: true,
    });
    if (ok) change.mutate({ userId, disabled: true });
  };
  return (
    <Tooltip title={label}>
      <IconButton size="small" aria-label={label} disabled={change.isPending} onClick={() => void act()}>
        {disabled ? <LockOpenOutlined fontSize="small" /> : <PersonOffOutlined fontSize="small" />}
      </IconButton>
    </Tooltip>
  );
}
