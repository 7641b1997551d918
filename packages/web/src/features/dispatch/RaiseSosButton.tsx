/**
 * "Déclencher un SOS pour {name}" / "Raise an SOS for {name}" on a tile's member (issue 60): a dispatcher who
 * learns of an emergency another way (a call, a colleague) raises the member's SOS, after confirming. The alert
 * is the member's, in the tile's channel (issue 69: one the dispatcher dispatches and the member belongs to), it
 * names the dispatcher, and the audit log keeps it as the dispatcher's (sendEmergencyAlert { userId, channelId }).
 */
import SosIcon from '@mui/icons-material/Sos';
import { SendEmergencyAlert } from '@talkgroup/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { useApiMutation } from '../../api/queries.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { RowAction } from '../../components/RowActions.tsx';

export function RaiseSosButton({ user, channelId }: { user: { id: number; name: string }; channelId: number }) {
  const { t } = useTranslation('safety');
  const notify = useNotify();
  const [asking, setAsking] = useState(false);
  const raise = useApiMutation(SendEmergencyAlert);
  const label = t('raise.button', { name: user.name });
  return (
    <>
      <RowAction icon={<SosIcon fontSize="small" />} label={label} onClick={() => setAsking(true)} />
      <ConfirmDialog
        open={asking}
        title={t('raise.title', { name: user.name })}
        message={t('raise.message', { name: user.name })}
        confirmLabel={t('raise.confirm')}
        destructive
        busy={raise.isPending}
        onCancel={() => setAsking(false)}
        onConfirm={async () => {
          try {
            await raise.mutateAsync({ userId: user.id, channelId });
            notify({ severity: 'success', message: t('raise.done', { name: user.name }) });
          } catch (error) {
            notify({ severity: 'error', message: errorMessage(error, t('raise.failed')) });
          } finally {
            setAsking(false);
          }
        }}
      />
    </>
  );
}
