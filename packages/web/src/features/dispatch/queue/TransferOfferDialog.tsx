/**
 * A request another dispatcher transfers to this one: accept it (this dispatcher holds it now) or decline it
 * (it goes back to its holder), within 30 s; the dialog goes as soon as the request changes.
 */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { DISPATCH_TRANSFER_MS } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import type { QueueEntry } from './queueOrder.ts';

export interface TransferOfferDialogProps {
  entry: QueueEntry;
  now: number;
  busy: boolean;
  onAnswer: (accept: boolean) => void;
}

export function TransferOfferDialog({ entry, now, busy, onAnswer }: TransferOfferDialogProps) {
  const { t } = useTranslation('dispatch');
  const { request } = entry;
  // The server's deadline when it gives one (DISPATCH_TRANSFER_SECONDS, a page reloaded mid-transfer); else 30 s from the push.
  const until = entry.request.transferUntil
    ? Date.parse(entry.request.transferUntil)
    : entry.receivedAt + DISPATCH_TRANSFER_MS;
  // Never more than the offer's 30 s, as the transfer dialog says (issue 58): the clock ticks once a second, so
  // `now` may predate the push, and the server's clock may run ahead of this one.
  const left = until - Math.max(now, entry.receivedAt);
  const seconds = Math.min(DISPATCH_TRANSFER_MS / 1000, Math.max(0, Math.ceil(left / 1000)));
  return (
    <Dialog open role="alertdialog" aria-labelledby="transfer-offer-title" aria-describedby="transfer-offer-details">
      <DialogTitle id="transfer-offer-title">
        {t('queue.offer.title', { holder: request.heldBy?.name ?? '', name: request.requester.name })}
      </DialogTitle>
      <DialogContent id="transfer-offer-details">
        <Typography>
          {request.channelName}
          {request.note ? ` · ${t('queue.note', { note: request.note })}` : ''}
        </Typography>
        <Typography role="timer" sx={{ color: 'text.secondary', mt: 1 }}>
          {t('queue.offer.countdown', { seconds })}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button disabled={busy} onClick={() => onAnswer(false)}>
          {t('queue.offer.decline')}
        </Button>
        <Button variant="contained" disabled={busy} onClick={() => onAnswer(true)}>
          {t('queue.offer.accept')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
