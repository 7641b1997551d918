/**
 * "Confirmez votre identité" / "Confirm it's you" (issue 47): a sensitive change (a passkey added or removed,
 * two-step verification turned on or off, one's email, a link to the identity provider) answered 403
 * `confirm_identity` because this session's last proof is older than 5 minutes. The person gives the password
 * again, or a code of the authenticator app (when two-step verification is on), or, when the account is linked to
 * the organisation's identity provider, goes through it again ("Continue with {provider}": the page comes back
 * here and the change is made again by hand). useConfirmedAction opens it and repeats the refused call.
 */
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  ConfirmIdentity,
  GetIdentityLinks,
  GetSecondFactorState,
  GetSignInOptions,
  StartOidcConfirm,
} from '@talkgroup/protocol';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../api/client.ts';
import { useApiQuery } from '../../api/queries.ts';
import { CancelButton, FormDialog, SubmitButton } from '../FormDialog.tsx';
import { OneTimeCodeInput } from '../OneTimeCodeInput.tsx';
import { TextInput } from '../TextInput.tsx';

export interface ConfirmIdentityDialogProps {
  open: boolean;
  /** true once the session is confirmed, false when the person gave up. */
  onDone: (confirmed: boolean) => void;
}

export function ConfirmIdentityDialog({ open, onDone }: ConfirmIdentityDialogProps) {
  const { t } = useTranslation('account');
  const [way, setWay] = useState<'password' | 'code'>('password');
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const factors = useApiQuery(GetSecondFactorState, {}, { enabled: open });
  const provider = useApiQuery(GetSignInOptions, {}, { enabled: open }).data?.sso?.name;
  const linked = (useApiQuery(GetIdentityLinks, {}, { enabled: open && Boolean(provider) }).data?.res.length ?? 0) > 0;

  const close = (confirmed: boolean) => {
    setValue('');
    setProblem(null);
    setWay('password');
    onDone(confirmed);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!value.trim()) return;
    setBusy(true);
    setProblem(null);
    try {
      await api(ConfirmIdentity, way === 'password' ? { password: value } : { code: value.trim() });
      close(true);
    } catch (error) {
      setProblem(errorMessage(error, t('confirmIdentity.failed')));
    } finally {
      setBusy(false);
    }
  };

  const throughProvider = async () => {
    setBusy(true);
    try {
      const returnTo = `${window.location.pathname}${window.location.search}`;
      const trip = await api(StartOidcConfirm, { returnTo });
      window.location.assign(trip.res.url);
    } catch (error) {
      setProblem(errorMessage(error, t('confirmIdentity.failed')));
      setBusy(false);
    }
  };

  return (
    <FormDialog
      open={open}
      title={t('confirmIdentity.title')}
      onClose={() => close(false)}
      busy={busy}
      onSubmit={submit}
      maxWidth="xs"
      notice={problem ? { severity: 'error', message: problem } : null}
      actions={
        <>
          <CancelButton onClick={() => close(false)} disabled={busy} />
          <SubmitButton busy={busy} disabled={!value.trim()}>
            {t('confirmIdentity.submit')}
          </SubmitButton>
        </>
      }
    >
      <Stack spacing={2}>
        <Typography variant="body2">{t('confirmIdentity.explain')}</Typography>
        {way === 'password' ? (
          <TextInput
            id="confirm-identity-password"
            name="password"
            type="password"
            label={t('confirmIdentity.password')}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            autoComplete="current-password"
            autoFocus
            required
          />
        ) : (
          <OneTimeCodeInput
            id="confirm-identity-code"
            name="code"
            label={t('confirmIdentity.code')}
            value={value}
            onValueChange={setValue}
          />
        )}
        {factors.data?.res.totp ? (
          <Button
            variant="text"
            sx={{ alignSelf: 'start' }}
            onClick={() => {
              setValue('');
              setWay(way === 'password' ? 'code' : 'password');
            }}
          >
            {way === 'password' ? t('confirmIdentity.useCode') : t('confirmIdentity.usePassword')}
          </Button>
        ) : null}
        {provider && linked ? (
          <Button variant="outlined" disabled={busy} onClick={() => void throughProvider()}>
            {t('confirmIdentity.provider', { provider })}
          </Button>
        ) : null}
      </Stack>
    </FormDialog>
  );
}
