/**
 * The administrator re-enters their password before editing a user (spec sections 2, 4 and 6): verifyPassword
 * with the signed-in administrator's id. Wrong: 'Mot de passe incorrect'; any other failure: 'Something went wrong!'.
 * Props: `open`, `targetName` (who is about to be edited), `onVerified()`, `onCancel()`.
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { VerifyPassword } from '@talkgroup/protocol';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../api/client.ts';
import { getSession } from '../../api/session.ts';
import { PasswordInput } from './PasswordInput.tsx';

export interface AdminPasswordDialogProps {
  open: boolean;
  targetName: string;
  onVerified: () => void;
  onCancel: () => void;
}

export function AdminPasswordDialog({ open, targetName, onVerified, onCancel }: AdminPasswordDialogProps) {
  const { t } = useTranslation(['users', 'common']);
  const titleId = useId();
  const [password, setPassword] = useState('');
  const [wrong, setWrong] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (open) {
      setPassword('');
      setWrong(false);
      setFailure(null);
    }
  }, [open]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const adminId = getSession()?.user?.id;
    if (busy || !adminId) return;
    setBusy(true);
    setFailure(null);
    try {
      const answer = await api(VerifyPassword, { id: adminId, password });
      if (answer.result === true) {
        onVerified();
        return;
      }
      setWrong(true);
    } catch (error) {
      setFailure(errorMessage(error, t('common:errors.somethingWrong')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={busy ? undefined : onCancel} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{t('users:gate.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('users:gate.message', { name: targetName })}</DialogContentText>
          <PasswordInput
            label={t('users:gate.password')}
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              setWrong(false);
            }}
            autoFocus
            autoComplete="current-password"
            error={wrong}
          />
          {wrong || failure ? (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {wrong ? t('users:gate.wrong') : failure}
            </Alert>
          ) : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5, gap: 1 }}>
          <Button onClick={onCancel} disabled={busy} color="inherit" variant="outlined">
            {t('common:actions.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={busy || password === ''}
            startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
          >
            {t('users:gate.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
