/**
 * "Transfer {name}": the other dispatchers of the request's channel (and administrators), online first; the one
 * chosen has 30 s to accept, or the request comes back to its holder.
 */
import CircleIcon from '@mui/icons-material/Circle';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { type DispatchRequest, ListDispatchTransferTargets } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/client.ts';
import { useApiQuery } from '../../../api/queries.ts';

export interface TransferDialogProps {
  request: DispatchRequest;
  busy: boolean;
  error: unknown;
  onTransfer: (toUserId: number) => void;
  onClose: () => void;
}

export function TransferDialog({ request, busy, error, onTransfer, onClose }: TransferDialogProps) {
  const { t } = useTranslation('dispatch');
  const targets = useApiQuery(ListDispatchTransferTargets, { requestId: request.requestId }, { staleTime: 0 });
  const list = [...(targets.data?.res ?? [])].sort((a, b) => Number(b.online) - Number(a.online));
  const name = request.requester.name;
  return (
    <Dialog open onClose={onClose} aria-labelledby="transfer-title" fullWidth maxWidth="xs">
      <DialogTitle id="transfer-title">{t('queue.transferDialog.title', { name })}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
          {t('queue.transferDialog.help')}
        </Typography>
        {error || targets.error ? (
          <Alert severity="warning" sx={{ mb: 1 }}>
            {errorMessage(error ?? targets.error, t('queue.failed'))}
          </Alert>
        ) : null}
        {targets.isPending ? <Typography>{t('queue.transferDialog.loading')}</Typography> : null}
        {targets.isSuccess && list.length === 0 ? <Typography>{t('queue.transferDialog.none')}</Typography> : null}
        <List dense>
          {list.map((target) => (
            <ListItemButton
              key={target.userId}
              disabled={busy}
              aria-label={t('queue.transferDialog.to', { name: target.name })}
              onClick={() => onTransfer(target.userId)}
            >
              <ListItemIcon sx={{ minWidth: 28 }}>
                <CircleIcon fontSize="inherit" sx={{ color: target.online ? 'success.main' : 'text.disabled' }} />
              </ListItemIcon>
              <ListItemText
                primary={target.name}
                secondary={target.online ? t('queue.transferDialog.online') : t('queue.transferDialog.offline')}
              />
            </ListItemButton>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('queue.transferDialog.cancel')}</Button>
      </DialogActions>
    </Dialog>
  );
}
