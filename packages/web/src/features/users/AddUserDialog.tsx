/**
 * Add User dialog (spec sections 2, 5 and 8). Props: `open`, `onClose()`, optional `onCreated(user)`.
 * Creates the user with signUpUser under the administrator's token (pseudo and mapRight included), then adds it
 * to each chosen channel with addUserToChannel. Blank required fields: 'User not created' + the check-fields
 * text; different passwords: the inline mismatch text, and creation is blocked.
 */
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import useMediaQuery from '@mui/material/useMediaQuery';
import { AddUserToChannel, SignUpUser, type User } from '@talkgroup/protocol';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../api/client.ts';
import { useChannels, useRefreshDirectory } from '../../api/directory.ts';
import { DialogAlert } from '../../components/DialogAlert.tsx';
import { type Notice, useNotify } from '../../components/Notifier.tsx';
import { SELECTION_PAGE_SIZES } from '../../components/table/useConsoleTable.ts';
import { UserFormFields } from './UserFormFields.tsx';
import { EMPTY_USER_FORM, hasBlankRequired, leftTrimmed, loginProblem, passwordsDiffer } from './userForm.ts';

export interface AddUserDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated?: (user: User) => void;
}

export function AddUserDialog({ open, onClose, onCreated }: AddUserDialogProps) {
  const { t } = useTranslation(['users', 'common']);
  const notify = useNotify();
  const refresh = useRefreshDirectory();
  const titleId = useId();
  const fullScreen = useMediaQuery('(max-width:600px)');
  const channels = useChannels();
  const [values, setValues] = useState(EMPTY_USER_FORM);
  const [showBlank, setShowBlank] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Notice | null>(null);

  useEffect(() => {
    if (open) {
      setValues(EMPTY_USER_FORM);
      setShowBlank(false);
      setProblem(null);
    }
  }, [open]);

  const refuse = (message: string) => setProblem({ severity: 'error', title: t('users:add.notCreated'), message });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const form = leftTrimmed(values);
    setValues(form);
    if (hasBlankRequired(form, 'add')) {
      setShowBlank(true);
      refuse(t('users:validation.checkFields'));
      return;
    }
    if (passwordsDiffer(form)) {
      refuse(t('users:validation.mismatch'));
      return;
    }
    const login = loginProblem(form.login);
    if (login) {
      refuse(t(`users:validation.${login}`));
      return;
    }
    setBusy(true);
    try {
      let created: User;
      try {
        const answer = await api(SignUpUser, {
          firstName: form.firstName,
          lastName: form.lastName,
          email: form.login,
          password: form.password,
          phone_number: '',
          pseudo: form.pseudo,
          mapRight: form.mapRight,
        });
        created = answer.user;
      } catch (error) {
        refuse(errorMessage(error, t('common:errors.somethingWrong')));
        return;
      }
      // Spec section 8: once the user exists the creation counts as a success, even if a channel fails.
      const added = await Promise.allSettled(
        form.channelIds.map((channelId) => api(AddUserToChannel, { userId: created.id, channelId })),
      );
      const failed = added.some((result) => result.status === 'rejected');
      notify(
        failed
          ? { severity: 'warning', title: t('users:add.created'), message: t('users:add.channelsFailed') }
          : { severity: 'success', message: t('users:add.created') },
      );
      await refresh();
      onCreated?.(created);
      onClose();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="md"
      fullWidth
      fullScreen={fullScreen}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{t('users:add.title')}</DialogTitle>
        <DialogContent dividers>
          <DialogAlert notice={problem} />
          <UserFormFields
            mode="add"
            values={values}
            onChange={setValues}
            channels={channels.data?.res ?? []}
            channelsLoading={channels.isPending}
            pageSizes={SELECTION_PAGE_SIZES}
            showBlank={showBlank}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, py: 2, gap: 1 }}>
          <Button onClick={onClose} disabled={busy} color="inherit" variant="outlined">
            {t('common:actions.cancel')}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={busy}
            startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
          >
            {t('users:add.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
