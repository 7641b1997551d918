/**
 * A tile's member (issue 59): "Basculer {name} sur {channel}" switches that member's /talk to the tile's channel
 * (selectChannelFor); its phone shows who switched it. The server's sentence says whether it worked.
 */
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import IconButton from '@mui/material/IconButton';
import Snackbar from '@mui/material/Snackbar';
import Tooltip from '@mui/material/Tooltip';
import { SelectChannelFor } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/client.ts';
import { useApiMutation } from '../../../api/queries.ts';

export function SwitchChannelButton({
  user,
  channel,
}: {
  user: { id: number; name: string };
  channel: { id: number; name: string };
}) {
  const { t } = useTranslation('dispatch');
  const select = useApiMutation(SelectChannelFor);
  const label = t('regroup.switch', { name: user.name, channel: channel.name });
  const said = select.isSuccess
    ? t('regroup.switched', { name: user.name, channel: channel.name })
    : select.error
      ? errorMessage(select.error, t('regroup.switchFailed'))
      : '';
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          size="small"
          aria-label={label}
          disabled={select.isPending}
          onClick={() => select.mutate({ userId: user.id, channelId: channel.id })}
        >
          <SwapHorizIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Snackbar open={said !== ''} autoHideDuration={4000} onClose={() => select.reset()} message={said} />
    </>
  );
}
