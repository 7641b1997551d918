/**
 * An administrator's row action (issue 38): "Reset second factor" removes the user's two-step verification and
 * recovery codes (and passkeys), for a lost phone. Asked once; the server audits it.
 */
import PhonelinkEraseOutlined from '@mui/icons-material/PhonelinkEraseOutlined';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { ResetSecondFactor } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../api/queries.ts';
import { useConfirm } from '../../components/ConfirmProvider.tsx';
import { failureNotice } from '../../components/failureNotice.ts';
import { useNotify } from '../../components/Notifier.tsx';

export function ResetSecondFactorButton({ userId, name }: { userId: number; name: string }) {
  const { t } = useTranslation(['users', 'common']);
  const confirm = useConfirm();
  const notify = useNotify();
  const reset = useApiMutation(ResetSecondFactor, {
    onSuccess: () => notify({ severity: 'success', message: t('users:secondFactor.done', { name }) }),
    onError: (error) => notify(failureNotice(t, error)),
  });
  const label = t('users:secondFactor.reset', { name });
  const ask = async () => {
    const ok = await confirm({
      title: t('common:confirm.title'),
      message: t('users:secondFactor.confirm', { name }),
      confirmLabel: t('users:secondFactor.confirmLabel'),
      destructive: true,
    });
    if (ok) reset.mutate({ userId });
  };
  return (
    <Tooltip title={label}>
      <IconButton size="small" aria-label={label} disabled={reset.isPending} onClick={() => void ask()}>
        <PhonelinkEraseOutlined fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
