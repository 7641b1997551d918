/**
 * Sign-in (spec sections 2, 4, 5): login and password with the spec's rules, 'Remember me', the version at
 * the bottom. Success stores the user and token (api/session.ts) and opens /channelsList; failure shows the
 * server's sentence or 'Error while login'.
 */

import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import { APP_VERSION, GetSignUpState, Login } from '@talkgroup/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { api, errorMessage } from '../../api/client.ts';
import { callKey } from '../../api/queries.ts';
import { saveSignIn } from '../../api/session.ts';
import { TextInput } from '../../components/TextInput.tsx';
import { AuthActions } from './AuthActions.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { loginProblem, passwordHint, requiredProblem } from './fields.ts';
import { PasswordField } from './PasswordField.tsx';
import { useAuthForm } from './useAuthForm.ts';

/** What another page may tell the sign-in page when it sends the user here. */
export interface SignInNotice {
  notice?: 'registered' | 'expired';
  login?: string;
}

export default function SignInPage() {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = (useLocation().state ?? {}) as SignInNotice;
  const [failure, setFailure] = useState<string | null>(null);
  const signUpOpen = useQuery({
    queryKey: callKey(GetSignUpState, {}),
    queryFn: ({ signal }) => api(GetSignUpState, {}, { anonymous: true, signal }),
  }).data?.open;
  const form = useAuthForm(
    { login: state.login ?? '', password: '', remember: false },
    { login: loginProblem, password: requiredProblem },
    (name) => `signin-${name}`,
  );

  const loginError = form.error('login');
  const passwordError = form.error('password');
  const hint = form.dirty('password') ? passwordHint(form.values.password) : undefined;

  const signIn = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const response = await api(
        Login,
        { user_email: values.login.trim(), user_password: values.password },
        { anonymous: true },
      );
      if (!response.success || !response.user?.authToken) throw new Error('no token in the answer');
      queryClient.clear();
      saveSignIn(response.user, values.remember);
      navigate('/channelsList', { replace: true });
    } catch (error) {
      setFailure(errorMessage(error, t('signIn.error')));
    }
  });

  return (
    <AuthLayout
      title={t('signIn.title')}
      subtitle={t('signIn.subtitle')}
      footer={
        <Typography component="p" variant="body2" data-testid="app-version">
          {tc('version', { version: APP_VERSION })} · {t(import.meta.env.PROD ? 'mode.production' : 'mode.development')}
        </Typography>
      }
    >
      <Box component="form" noValidate onSubmit={signIn} sx={{ display: 'grid', gap: 2.25 }}>
        {state.notice === 'registered' && !failure ? <Alert severity="success">{t('signUp.success')}</Alert> : null}
        {state.notice === 'expired' && !failure ? <Alert severity="info">{t('signIn.expired')}</Alert> : null}
        {failure ? <Alert severity="error">{failure}</Alert> : null}

        <TextInput
          {...form.field('login')}
          label={t('signIn.login')}
          type="email"
          autoComplete="username"
          autoFocus={!state.login}
          required
          helperText={loginError ? t(loginError) : undefined}
        />
        <PasswordField
          {...form.field('password')}
          label={t('signIn.password')}
          autoComplete="current-password"
          autoFocus={Boolean(state.login)}
          required
          helperText={passwordError ? t(passwordError) : hint ? t(hint) : undefined}
          helperTone="warning"
        />
        <FormControlLabel control={<Checkbox {...form.checkbox('remember')} />} label={t('signIn.remember')} />
        {/* Sign-up is offered only when it can work: no account yet, or ALLOW_SIGNUP. */}
        <AuthActions
          busy={form.submitting}
          submitLabel={t('signIn.submit')}
          {...(signUpOpen ? { question: t('signIn.noAccount'), linkLabel: t('signIn.toSignUp'), to: '/signup' } : {})}
        />
      </Box>
    </AuthLayout>
  );
}
