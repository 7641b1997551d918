/**
 * Confirmation before deleting a channel (spec section 8): 'Channel has been deleted', or the failure trio.
 * Props: `channel` ({ id, name }; null = closed), `onClose()`, optional `onDeleted()`.
 */
import { type Channel, DeleteChannel } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { useRefreshDirectory } from '../../api/directory.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { failureNotice } from '../../components/failureNotice.ts';
import { useNotify } from '../../components/Notifier.tsx';

export interface DeleteChannelConfirmProps {
  channel: Pick<Channel, 'id' | 'name'> | null;
  onClose: () => void;
  onDeleted?: () => void;
}

export function DeleteChannelConfirm({ channel, onClose, onDeleted }: DeleteChannelConfirmProps) {
  const { t } = useTranslation(['channels', 'common']);
  const notify = useNotify();
  const refresh = useRefreshDirectory();

  const remove = async () => {
    if (!channel) return;
    try {
      await api(DeleteChannel, { channelId: channel.id });
      notify({ severity: 'success', message: t('channels:delete.deleted') });
      await refresh();
      onDeleted?.();
    } catch (error) {
      notify(failureNotice(t, error));
    }
    onClose();
  };

  return (
    <ConfirmDialog
      open={channel !== null}
      title={t('common:confirm.title')}
      message={t('channels:delete.message', { name: channel?.name ?? '' })}
      confirmLabel={t('channels:delete.confirm')}
      destructive
      onConfirm={remove}
      onCancel={onClose}
    />
  );
}
