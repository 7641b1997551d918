/** Spec section 8: a row click on a member whose position is not known opens 'Unknown location'. */
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

export function UnknownLocationDialog({ name, onClose }: { name: string | null; onClose: () => void }) {
  const { t } = useTranslation('room');
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog
      open={name !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      aria-describedby={textId}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{t('unknownLocation.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{t('unknownLocation.text', { name: name ?? '' })}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button onClick={onClose} variant="contained" autoFocus>
          {t('unknownLocation.ok')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
