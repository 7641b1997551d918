/**
 * Confirmation before an action ('Are you sure?', spec section 8). Use the component directly, or
 * `const confirm = useConfirm(); if (await confirm({ message })) ...` (ConfirmProvider.tsx).
 */
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface ConfirmOptions {
  title?: ReactNode;
  message?: ReactNode;
  confirmLabel?: ReactNode;
  cancelLabel?: ReactNode;
  /** Red confirm button for deletions. */
  destructive?: boolean;
}

export interface ConfirmDialogProps extends ConfirmOptions {
  open: boolean;
  /** May return a promise: the dialog shows progress and stays open until it settles. */
  onConfirm: () => unknown;
  onCancel: () => void;
  busy?: boolean;
}

export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel,
  cancelLabel,
  destructive,
  onConfirm,
  onCancel,
  busy: busyProp,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const messageId = useId();
  const [running, setRunning] = useState(false);
  const busy = busyProp || running;

  const confirm = async () => {
    setRunning(true);
    try {
      await onConfirm();
    } finally {
      setRunning(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onCancel}
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={message ? messageId : undefined}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{title ?? t('confirm.title')}</DialogTitle>
      {message ? (
        <DialogContent>
          <DialogContentText id={messageId} component="div">
            {message}
          </DialogContentText>
        </DialogContent>
      ) : null}
      <DialogActions sx={{ px: 3, pb: 2.5, gap: 1 }}>
        <Button onClick={onCancel} disabled={busy} color="inherit" variant="outlined">
          {cancelLabel ?? t('actions.cancel')}
        </Button>
        <Button
          onClick={confirm}
          disabled={busy}
          variant="contained"
          color={destructive ? 'error' : 'primary'}
          startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
          autoFocus
        >
          {confirmLabel ?? t('actions.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
