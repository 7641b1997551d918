/**
 * A tile's member (issue 59): "Basculer {name} sur {channel}" switches that member's /talk to the tile's channel
 * (selectChannelFor); its phone shows who switched it. The server's sentence says whether it worked.
 */
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import { SelectChannelFor } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/client.ts';
import { useApiMutation } from '../../../api/queries.ts';
import { useNotify } from '../../../components/Notifier.tsx';
import { RowAction } from '../../../components/RowActions.tsx';

export function SwitchChannelButton({
  user,
  channel,
}: {
  user: { id: number; name: string };
  channel: { id: number; name: string };
}) {
  const { t } = useTranslation('dispatch');
  const notify = useNotify();
  // The page's notice, not a snackbar of its own: in a row's "Actions" menu, closed by then, it would not show.
  const select = useApiMutation(SelectChannelFor, {
    onSuccess: () =>
      notify({ severity: 'success', message: t('regroup.switched', { name: user.name, channel: channel.name }) }),
    onError: (error) => notify({ severity: 'error', message: errorMessage(error, t('regroup.switchFailed')) }),
  });
  const label = t('regroup.switch', { name: user.name, channel: channel.name });
  return (
    <RowAction
      icon={<SwapHorizIcon fontSize="small" />}
      label={label}
      disabled={select.isPending}
      onClick={() => select.mutate({ userId: user.id, channelId: channel.id })}
    />
  );
}
