/**
 * The frame of the console's dialogs (Add User, Edit User Profile, the administrator's password, the channel
 * dialog, Search User, Import): title, content, the dialog's own message at the top, and the actions row.
 *
 *   open, title, onClose      closing is refused while `busy` (a request is on its way)
 *   onSubmit                  when given, content and actions are one <form noValidate>: Enter submits; the
 *                             content scrolls and the actions stay in view, as without a form
 *   notice                    shown first in the content (DialogAlert), where the eye and screen readers are
 *   actions                   the buttons; <SubmitButton> and <CancelButton> below are the usual pair
 *   maxWidth, phoneFullScreen full screen below 600 px unless phoneFullScreen is false
 *   dividers, actionsSx       content dividers (default true) and the actions row's spacing
 */
import Button, { type ButtonProps } from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog, { type DialogProps } from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type { SxProps, Theme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { FormEventHandler, ReactNode } from 'react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogAlert } from './DialogAlert.tsx';
import type { Notice } from './Notifier.tsx';

export interface FormDialogProps {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  busy?: boolean;
  onSubmit?: FormEventHandler<HTMLFormElement>;
  notice?: Notice | null;
  actions: ReactNode;
  children: ReactNode;
  maxWidth?: DialogProps['maxWidth'];
  phoneFullScreen?: boolean;
  dividers?: boolean;
  actionsSx?: SxProps<Theme>;
}

export function FormDialog({
  open,
  title,
  onClose,
  busy = false,
  onSubmit,
  notice = null,
  actions,
  children,
  maxWidth = 'md',
  phoneFullScreen = true,
  dividers = true,
  actionsSx = { px: 3, py: 2, gap: 1 },
}: FormDialogProps) {
  const titleId = useId();
  const phone = useMediaQuery('(max-width:600px)');
  const body = (
    <>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers={dividers}>
        <DialogAlert notice={notice} />
        {children}
      </DialogContent>
      <DialogActions sx={actionsSx}>{actions}</DialogActions>
    </>
  );
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth={maxWidth}
      fullWidth
      fullScreen={phoneFullScreen && phone}
    >
      {onSubmit ? (
        // A column like the dialog's paper, so that the content scrolls and the actions stay in view (issue 58:
        // a bare form grew past the screen and took "Ajouter" below the fold).
        <form
          onSubmit={onSubmit}
          noValidate
          style={{ display: 'flex', flexDirection: 'column', flex: '1 1 auto', minHeight: 0, overflow: 'hidden' }}
        >
          {body}
        </form>
      ) : (
        body
      )}
    </Dialog>
  );
}

/** The dialog's submit button; a spinner while `busy`. */
export function SubmitButton({ busy = false, disabled, children, ...props }: ButtonProps & { busy?: boolean }) {
  return (
    <Button
      type="submit"
      variant="contained"
      disabled={busy || disabled}
      startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
      {...props}
    >
      {children}
    </Button>
  );
}

/** 'Cancel', outlined. */
export function CancelButton({ onClick, disabled }: { onClick: () => void; disabled?: boolean }) {
  const { t } = useTranslation('common');
  return (
    <Button onClick={onClick} disabled={disabled} color="inherit" variant="outlined">
      {t('actions.cancel')}
    </Button>
  );
}
