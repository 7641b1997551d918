/**
 * The administrator re-enters their password before editing a user (spec sections 2, 4 and 6): verifyPassword
 * with the signed-in administrator's id. Wrong: 'Mot de passe incorrect'; any other failure: 'Something went wrong!'.
 * Props: `open`, `targetName` (who is about to be edited), `onVerified()`, `onCancel()`.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import Alert from '@mui/material/Alert';
import DialogContentText from '@mui/material/DialogContentText';
import { VerifyPassword } from '@talkgroup/protocol';
import { useEffect } from 'react';
import { useController, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { getSession } from '../../api/session.ts';
import { CancelButton, FormDialog, SubmitButton } from '../../components/FormDialog.tsx';
import { useVerifyPassword } from './api/verifyPassword.ts';
import { PasswordInput } from './PasswordInput.tsx';

export interface AdminPasswordDialogProps {
  open: boolean;
  targetName: string;
  /** With the password just verified (a change of one's own password sends it as currentPassword). */
  onVerified: (password: string) => void;
  onCancel: () => void;
}

/** verifyPassword's body without the id, which is the signed-in administrator's. */
const GateSchema = VerifyPassword.body.pick({ password: true });

export function AdminPasswordDialog({ open, targetName, onVerified, onCancel }: AdminPasswordDialogProps) {
  const { t } = useTranslation(['users', 'common']);
  const verify = useVerifyPassword();
  const form = useForm<{ password: string }>({ defaultValues: { password: '' }, resolver: zodResolver(GateSchema) });
  const { field } = useController({ name: 'password', control: form.control });
  // A wrong password stays said until the field changes.
  const wrong = form.formState.errors.password?.type === 'wrong';

  const { reset } = form;
  const resetVerify = verify.reset;
  useEffect(() => {
    if (open) {
      reset({ password: '' });
      resetVerify();
    }
  }, [open, reset, resetVerify]);

  const submit = form.handleSubmit(async ({ password }) => {
    const adminId = getSession()?.user?.id;
    if (verify.isPending || !adminId) return;
    try {
      const answer = await verify.mutateAsync({ id: adminId, password });
      if (answer.result === true) onVerified(password);
      else form.setError('password', { type: 'wrong' });
    } catch {
      // verify.error says it below.
    }
  });

  const failure = verify.error ? errorMessage(verify.error, t('common:errors.somethingWrong')) : null;
  return (
    <FormDialog
      open={open}
      title={t('users:gate.title')}
      onClose={onCancel}
      busy={verify.isPending}
      onSubmit={submit}
      maxWidth="xs"
      phoneFullScreen={false}
      dividers={false}
      actionsSx={{ px: 3, pb: 2.5, gap: 1 }}
      actions={
        <>
          <CancelButton onClick={onCancel} disabled={verify.isPending} />
          <SubmitButton busy={verify.isPending} disabled={field.value === ''}>
            {t('users:gate.submit')}
          </SubmitButton>
        </>
      }
    >
      <DialogContentText sx={{ mb: 2 }}>{t('users:gate.message', { name: targetName })}</DialogContentText>
      <PasswordInput
        label={t('users:gate.password')}
        name={field.name}
        value={field.value}
        onChange={(event) => {
          field.onChange(event);
          form.clearErrors('password');
        }}
        onBlur={field.onBlur}
        inputRef={field.ref}
        autoFocus
        autoComplete="current-password"
        error={wrong}
      />
      {wrong || failure ? (
        <Alert severity="error" role="alert" sx={{ mt: 2 }}>
          {wrong ? t('users:gate.wrong') : failure}
        </Alert>
      ) : null}
    </FormDialog>
  );
}
