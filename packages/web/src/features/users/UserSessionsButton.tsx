/**
 * An administrator's row action (issue 38): "Sessions of {name}" shows where the user is signed in (browser,
 * system, address, how, when) and ends any of those sessions, each end audited by the server.
 */
import DevicesOutlined from '@mui/icons-material/DevicesOutlined';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SessionsList } from '../../components/SessionsList.tsx';

export function UserSessionsButton({ userId, name }: { userId: number; name: string }) {
  const { t } = useTranslation('users');
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const label = t('sessions.open', { name });
  return (
    <>
      <Tooltip title={label}>
        <IconButton size="small" aria-label={label} onClick={() => setOpen(true)}>
          <DevicesOutlined fontSize="small" />
        </IconButton>
      </Tooltip>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby={titleId} fullWidth maxWidth="sm">
        <DialogTitle id={titleId}>{label}</DialogTitle>
        <DialogContent>{open ? <SessionsList userId={userId} /> : null}</DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{t('sessions.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
