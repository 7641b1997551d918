/**
 * Two-step verification (issue 38) on /account: set it up (a QR code and the secret as text, a code to
 * confirm), then the 10 recovery codes shown once (with a copy button); once on, turn it off with a code. A
 * session the organisation holds until a second factor is set (the security policy) says so here and reaches
 * the rest of the app as soon as it is done. Setting it up asks "Confirm it's you" when the server answers
 * `confirm_identity` (at the start or at the confirmation, issue 47), then goes on by itself; turning it off
 * needs none (its code is the factor given now).
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ConfirmTotpSetup, DisableTotp, GetSecondFactorState, StartTotpSetup } from '@talkgroup/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../api/client.ts';
import { callKey, useApiMutation, useApiQuery } from '../../api/queries.ts';
import { markSecondFactorSetup, useSession } from '../../api/session.ts';
import { useConfirmedAction } from '../../components/confirm-identity/useConfirmedAction.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { AccountSection } from './AccountPage.tsx';

/** The otpauth URL drawn as a QR code (a data URL), for the authenticator app to scan. */
function useQrCode(text: string | undefined): string | undefined {
  const [image, setImage] = useState<string>();
  useEffect(() => {
    let live = true;
    setImage(undefined);
    if (text) {
      QRCode.toDataURL(text, { margin: 1, width: 220 }).then(
        (url) => live && setImage(url),
        () => {},
      );
    }
    return () => {
      live = false;
    };
  }, [text]);
  return image;
}

export function TwoStepSection() {
  const { t } = useTranslation('account');
  const client = useQueryClient();
  const session = useSession();
  const state = useApiQuery(GetSecondFactorState, {});
  const [setup, setSetup] = useState<{ secret: string; otpauthUrl: string }>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const [code, setCode] = useState('');
  const [failure, setFailure] = useState<string>();
  const [copied, setCopied] = useState(false);
  const qr = useQrCode(setup?.otpauthUrl);
  const refresh = () => client.invalidateQueries({ queryKey: callKey(GetSecondFactorState, {}) });
  const confirmed = useConfirmedAction();

  // Both steps may ask "Confirm it's you" first: undefined when the person gave up.
  const start = useMutation({
    mutationFn: () => confirmed.run(() => api(StartTotpSetup, {})),
    onSuccess: (answer) => {
      if (!answer) return;
      setFailure(undefined);
      setCode('');
      setSetup(answer.res);
    },
    onError: (error) => setFailure(errorMessage(error, t('twoStep.failed'))),
  });
  const confirm = useMutation({
    mutationFn: (body: { code: string }) => confirmed.run(() => api(ConfirmTotpSetup, body)),
    onSuccess: (answer) => {
      if (!answer) return;
      setFailure(undefined);
      setSetup(undefined);
      setCode('');
      setRecoveryCodes(answer.res.recoveryCodes);
      // The organisation's hold ends at once: the rest of the app opens.
      markSecondFactorSetup(false);
      void refresh();
    },
    onError: (error) => setFailure(errorMessage(error, t('twoStep.failed'))),
  });
  const disable = useApiMutation(DisableTotp, {
    onSuccess: () => {
      setFailure(undefined);
      setCode('');
      setRecoveryCodes(undefined);
      void refresh();
    },
    onError: (error) => setFailure(errorMessage(error, t('twoStep.failed'))),
  });

  const on = state.data?.res.totp === true;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return;
    if (setup) confirm.mutate({ code: code.trim() });
    else if (on) disable.mutate({ code: code.trim() });
  };
  const copy = async () => {
    if (!recoveryCodes) return;
    try {
      await navigator.clipboard.writeText(recoveryCodes.join('\n'));
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  return (
    <AccountSection id="two-step" title={t('twoStep.title')}>
      {confirmed.dialog}
      <Stack spacing={2}>
        {session?.secondFactorSetup ? <Alert severity="warning">{t('twoStep.required')}</Alert> : null}
        {failure ? <Alert severity="error">{failure}</Alert> : null}
        {recoveryCodes ? (
          <Box>
            <Alert severity="success" sx={{ mb: 2 }}>
              {t('twoStep.nowOn')}
            </Alert>
            <Typography component="h3" variant="subtitle1" id="two-step-codes-title" sx={{ fontWeight: 600 }}>
              {t('twoStep.recoveryTitle')}
            </Typography>
            <Typography variant="body2" sx={{ mb: 1 }}>
              {t('twoStep.recoveryHelp')}
            </Typography>
            <Box
              component="ul"
              aria-labelledby="two-step-codes-title"
              sx={{
                fontFamily: 'monospace',
                fontSize: '1.05rem',
                display: 'grid',
                gridTemplateColumns: 'repeat(2, max-content)',
                columnGap: 4,
                rowGap: 0.5,
                pl: 3,
                my: 1,
              }}
            >
              {recoveryCodes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </Box>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
              <Button variant="outlined" onClick={copy}>
                {t('twoStep.copy')}
              </Button>
              <Button onClick={() => setRecoveryCodes(undefined)}>{t('twoStep.done')}</Button>
              <Typography role="status" variant="body2">
                {copied ? t('twoStep.copied') : ''}
              </Typography>
            </Stack>
          </Box>
        ) : null}

        {!recoveryCodes && !setup ? (
          <Typography variant="body1">
            {state.data
              ? on
                ? t('twoStep.isOn', { count: state.data.res.recoveryCodesLeft })
                : t('twoStep.isOff')
              : ''}
          </Typography>
        ) : null}

        {!on && !setup && !recoveryCodes && state.data ? (
          <Box>
            <Button variant="contained" onClick={() => start.mutate()} disabled={start.isPending}>
              {t('twoStep.setUp')}
            </Button>
          </Box>
        ) : null}

        {setup ? (
          <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }}>
            <Typography variant="body2">{t('twoStep.scan')}</Typography>
            {qr ? (
              <Box
                component="img"
                src={qr}
                alt={t('twoStep.qrAlt')}
                sx={{ width: 220, height: 220, bgcolor: '#fff', borderRadius: 1 }}
              />
            ) : null}
            <Box>
              <Typography variant="body2" id="two-step-secret-label">
                {t('twoStep.secretLabel')}
              </Typography>
              <Typography
                aria-labelledby="two-step-secret-label"
                data-testid="totp-secret"
                sx={{ fontFamily: 'monospace', fontSize: '1.05rem', wordBreak: 'break-all', userSelect: 'all' }}
              >
                {setup.secret}
              </Typography>
            </Box>
            <TextInput
              id="two-step-code"
              name="code"
              label={t('twoStep.code')}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              autoComplete="one-time-code"
              required
              slotProps={{ input: { inputMode: 'numeric', maxLength: 6 } }}
              helperText={t('twoStep.codeHelp')}
            />
            <Stack direction="row" spacing={1}>
              <Button type="submit" variant="contained" disabled={confirm.isPending || !code.trim()}>
                {t('twoStep.confirm')}
              </Button>
              <Button onClick={() => setSetup(undefined)}>{t('twoStep.cancel')}</Button>
            </Stack>
          </Box>
        ) : null}

        {on && !recoveryCodes ? (
          <Box component="form" noValidate onSubmit={submit} sx={{ display: 'grid', gap: 2 }}>
            <TextInput
              id="two-step-off-code"
              name="code"
              label={t('twoStep.offCode')}
              value={code}
              onChange={(event) => setCode(event.target.value)}
              autoComplete="one-time-code"
              required
              slotProps={{ input: { maxLength: 40 } }}
              helperText={t('twoStep.offHelp')}
            />
            <Box>
              <Button type="submit" variant="outlined" color="error" disabled={disable.isPending || !code.trim()}>
                {t('twoStep.turnOff')}
              </Button>
            </Box>
          </Box>
        ) : null}
      </Stack>
    </AccountSection>
  );
}
