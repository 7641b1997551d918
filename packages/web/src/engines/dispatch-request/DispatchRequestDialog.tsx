/**
 * "Appeler le dispatch": urgent or not, an optional short note, then Call. A refusal (an open request already,
 * a channel no longer one's own) stays in the dialog with the server's sentence.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DISPATCH_NOTE_MAX, type DispatchPriority } from '@talkgroup/protocol';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';

export interface DispatchRequestDialogProps {
  open: boolean;
  channelName: string;
  pending: boolean;
  error: unknown;
  onClose: () => void;
  onSubmit: (request: { priority: DispatchPriority; note: string }) => void;
}

export function DispatchRequestDialog({
  open,
  channelName,
  pending,
  error,
  onClose,
  onSubmit,
}: DispatchRequestDialogProps) {
  const { t } = useTranslation('dispatchRequest');
  const titleId = useId();
  const [urgent, setUrgent] = useState(false);
  const [note, setNote] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ priority: urgent ? 'high' : 'normal', note: note.trim() });
  };
  const reset = () => {
    setUrgent(false);
    setNote('');
  };

  return (
    <Dialog
      open={open}
      onClose={pending ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="xs"
      fullWidth
      slotProps={{ transition: { onExited: reset } }}
    >
      {/* A column, so that the content scrolls and the actions stay in view (issue 58). */}
      <form
        onSubmit={submit}
        style={{ display: 'flex', flexDirection: 'column', flex: '1 1 auto', minHeight: 0, overflow: 'hidden' }}
      >
        <DialogTitle id={titleId}>{t('dialog.title')}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('dialog.intro', { channel: channelName })}
          </Typography>
          <FormControlLabel
            sx={{ minHeight: 48, mr: 0 }}
            control={<Switch checked={urgent} onChange={(event) => setUrgent(event.target.checked)} color="error" />}
            label={t('dialog.urgent')}
          />
          <Typography variant="caption" sx={{ color: 'text.secondary', mt: -1.5, pl: 1 }}>
            {t('dialog.urgentHelp')}
          </Typography>
          <TextField
            label={t('dialog.note')}
            value={note}
            onChange={(event) => setNote(event.target.value.slice(0, DISPATCH_NOTE_MAX))}
            multiline
            minRows={2}
            maxRows={4}
            slotProps={{ htmlInput: { maxLength: DISPATCH_NOTE_MAX } }}
            helperText={t('dialog.noteHelp', { length: note.length, max: DISPATCH_NOTE_MAX })}
          />
          {error ? <Alert severity="error">{errorMessage(error, t('dialog.failed'))}</Alert> : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5, gap: 1 }}>
          <Button onClick={onClose} disabled={pending}>
            {t('dialog.close')}
          </Button>
          <Button type="submit" variant="contained" loading={pending}>
            {t('dialog.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
