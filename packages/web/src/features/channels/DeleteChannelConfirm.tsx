/**
 * Confirmation before deleting a channel (spec section 8): 'Channel has been deleted', or the failure trio.
 * Props: `channel` ({ id, name }; null = closed), `onClose()`, optional `onDeleted()`.
 */
import type { Channel } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { failureNotice } from '../../components/failureNotice.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { useDeleteChannel } from './api/deleteChannel.ts';

export interface DeleteChannelConfirmProps {
  channel: Pick<Channel, 'id' | 'name'> | null;
  onClose: () => void;
  onDeleted?: () => void;
}

export function DeleteChannelConfirm({ channel, onClose, onDeleted }: DeleteChannelConfirmProps) {
  const { t } = useTranslation(['channels', 'common']);
  const notify = useNotify();
  const deleteChannel = useDeleteChannel();

  const remove = async () => {
    if (!channel) return;
    try {
      await deleteChannel.mutateAsync({ channelId: channel.id });
      notify({ severity: 'success', message: t('channels:delete.deleted') });
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
