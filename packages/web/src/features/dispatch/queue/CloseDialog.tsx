/**
 * "Clore la demande" (issue 58): how the request ended (Résolue, Sans suite, Orientée), a note for the record and
 * an incident reference, both optional; what closeDispatchCall keeps and "Terminées" shows.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import {
  DISPATCH_CLOSE_NOTE_MAX,
  DISPATCH_OUTCOMES,
  DISPATCH_REFERENCE_MAX,
  type DispatchOutcome,
  type DispatchRequest,
} from '@talkgroup/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/client.ts';

export interface CloseDialogProps {
  request: DispatchRequest;
  busy: boolean;
  error: unknown;
  onConfirm: (close: { outcome: DispatchOutcome; note?: string; reference?: string }) => void;
  onClose: () => void;
}

export function CloseDialog({ request, busy, error, onConfirm, onClose }: CloseDialogProps) {
  const { t } = useTranslation('dispatch');
  const [outcome, setOutcome] = useState<DispatchOutcome>('resolved');
  const [note, setNote] = useState('');
  const [reference, setReference] = useState('');
  const submit = () =>
    onConfirm({
      outcome,
      ...(note.trim() ? { note: note.trim() } : {}),
      ...(reference.trim() ? { reference: reference.trim() } : {}),
    });
  return (
    <Dialog open onClose={onClose} aria-labelledby="close-request-title" fullWidth maxWidth="xs">
      <DialogTitle id="close-request-title">{t('queue.closeDialog.title')}</DialogTitle>
      <DialogContent>
        {error ? (
          <Alert severity="warning" sx={{ mb: 1 }}>
            {errorMessage(error, t('queue.failed'))}
          </Alert>
        ) : null}
        <FormControl sx={{ mb: 1 }}>
          <FormLabel id="close-request-outcome">
            {t('queue.closeDialog.outcome', { name: request.requester.name })}
          </FormLabel>
          <RadioGroup
            aria-labelledby="close-request-outcome"
            value={outcome}
            onChange={(_event, value) => setOutcome(value as DispatchOutcome)}
          >
            {DISPATCH_OUTCOMES.map((value) => (
              <FormControlLabel key={value} value={value} control={<Radio />} label={t(`queue.outcome.${value}`)} />
            ))}
          </RadioGroup>
        </FormControl>
        <TextField
          label={t('queue.closeDialog.note')}
          value={note}
          onChange={(event) => setNote(event.target.value)}
          multiline
          minRows={2}
          fullWidth
          margin="dense"
          slotProps={{ htmlInput: { maxLength: DISPATCH_CLOSE_NOTE_MAX } }}
        />
        <TextField
          label={t('queue.closeDialog.reference')}
          value={reference}
          onChange={(event) => setReference(event.target.value)}
          fullWidth
          margin="dense"
          slotProps={{ htmlInput: { maxLength: DISPATCH_REFERENCE_MAX } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('queue.closeDialog.cancel')}</Button>
        <Button variant="contained" disabled={busy} onClick={submit}>
          {t('queue.closeDialog.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
