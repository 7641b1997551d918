/**
 * Sign-in (spec sections 2, 4, 5): login and password with the spec's rules, 'Remember me', the version at
 * the bottom. Success stores the user and token (api/session.ts) and opens /channelsList; failure shows the
 * server's sentence or 'Error while login'.
 * Single sign-on (issue 38): 'Sign in with {name}' when the server has a provider; the provider sends the
 * browser back here with a one-time code in the fragment (#sso=...), exchanged for the session, or with
 * ?sso_error=<code>, said in the reader's language. With OIDC_ONLY the password form is hidden (/signin?password
 * shows it: an administrator's way in when the provider is down).
 */

import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import Typography from '@mui/material/Typography';
import {
  APP_VERSION,
  FinishOidcSignIn,
  GetSignInOptions,
  GetSignUpState,
  Login,
  type SignedInUser,
  SSO_ERROR_CODES,
  type SsoErrorCode,
} from '@talkgroup/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiError, api, errorMessage } from '../../api/client.ts';
import { callKey } from '../../api/queries.ts';
import { afterSignIn, saveSignIn } from '../../api/session.ts';
import { OneTimeCodeInput } from '../../components/OneTimeCodeInput.tsx';
import { TextInput } from '../../components/TextInput.tsx';
import { AuthActions } from './AuthActions.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { loginProblem, passwordHint, requiredProblem } from './fields.ts';
import { PasskeySignIn } from './PasskeySignIn.tsx';
import { PasswordField } from './PasswordField.tsx';
import { useAuthForm } from './useAuthForm.ts';

/** What another page may tell the sign-in page when it sends the user here. */
export interface SignInNotice {
  notice?: 'registered' | 'expired';
  login?: string;
}

/** 'Remember me' as ticked when the browser left for the provider: it comes back to a new page. */
const SSO_REMEMBER_KEY = 'talkgroup.ssoRemember';

function ssoErrorKey(code: string | null): `sso.errors.${SsoErrorCode}` | null {
  if (code === null) return null;
  const known = SSO_ERROR_CODES.find((each) => each === code);
  return `sso.errors.${known ?? 'failed'}`;
}

export default function SignInPage() {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = (useLocation().state ?? {}) as SignInNotice;
  const [failure, setFailure] = useState<string | null>(null);
  const [search] = useSearchParams();
  const ssoError = ssoErrorKey(search.get('sso_error'));
  const location = useLocation();
  const ssoCode = /^#sso=([\w-]+)$/.exec(location.hash)?.[1];
  const [finishing, setFinishing] = useState(Boolean(ssoCode));
  const exchanged = useRef(false);
  const options = useQuery({
    queryKey: callKey(GetSignInOptions, {}),
    queryFn: ({ signal }) => api(GetSignInOptions, {}, { anonymous: true, signal }),
  }).data;
  const showPasswordForm = options?.passwordSignIn !== false || search.has('password');
  // Issue 38: the account has a second factor: the page asks for its code after the password.
  const [otpAsked, setOtpAsked] = useState(false);
  const [otp, setOtp] = useState('');
  /** A single sign-on whose code waits for the local second factor. */
  const [ssoFactor, setSsoFactor] = useState<{ code: string; remember: boolean } | null>(null);
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

  /** Any sign-in's answer: a second factor the organisation requires and the user lacks is set up first. */
  const signedIn = (user: SignedInUser, remember: boolean, setupRequired = false) => {
    queryClient.clear();
    saveSignIn(user, remember, setupRequired);
    navigate(setupRequired ? '/account' : afterSignIn(user.role), { replace: true });
  };

  /**
   * The provider's one-time code for the session. A role that must have a second factor, signed in by a provider
   * that does not say one was used, gives the local code first: the page asks for it and sends the same code again.
   */
  const exchange = async (code: string, remember: boolean, factor?: string) => {
    try {
      const response = await api(FinishOidcSignIn, { code, ...(factor ? { otp: factor } : {}) }, { anonymous: true });
      if (!response.success || !response.user?.authToken) throw new Error('no token in the answer');
      signedIn(response.user, remember, response.secondFactorSetupRequired === true);
    } catch (error) {
      if (
        error instanceof ApiError &&
        (error.code === 'second_factor_required' || error.code === 'second_factor_wrong')
      ) {
        setSsoFactor({ code, remember });
        if (error.code === 'second_factor_wrong') {
          setOtp('');
          setFailure(errorMessage(error, t('signIn.error')));
        }
        return;
      }
      setSsoFactor(null);
      setFailure(errorMessage(error, t('sso.errors.failed')));
    } finally {
      setFinishing(false);
    }
  };

  // The code leaves the address at once and is exchanged once.
  useEffect(() => {
    if (!ssoCode || exchanged.current) return;
    exchanged.current = true;
    window.history.replaceState(null, '', '/signin');
    let remember = false;
    try {
      remember = sessionStorage.getItem(SSO_REMEMBER_KEY) === 'true';
      sessionStorage.removeItem(SSO_REMEMBER_KEY);
    } catch {}
    void exchange(ssoCode, remember);
  });

  const sendSsoFactor = (event: FormEvent) => {
    event.preventDefault();
    if (!ssoFactor || !otp.trim()) return;
    setFailure(null);
    setFinishing(true);
    void exchange(ssoFactor.code, ssoFactor.remember, otp.trim());
  };

  const signInWithProvider = () => {
    try {
      sessionStorage.setItem(SSO_REMEMBER_KEY, String(form.values.remember));
    } catch {}
    window.location.assign('/auth/oidc/start');
  };

  const signIn = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const code = otp.trim();
      const response = await api(
        Login,
        { user_email: values.login.trim(), user_password: values.password, ...(otpAsked && code ? { otp: code } : {}) },
        { anonymous: true },
      );
      if (!response.success || !response.user?.authToken) throw new Error('no token in the answer');
      signedIn(response.user, values.remember, response.secondFactorSetupRequired === true);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'second_factor_required') {
        setOtpAsked(true);
        return;
      }
      if (error instanceof ApiError && error.code === 'second_factor_wrong') setOtp('');
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
      {ssoFactor ? (
        <Box component="form" noValidate onSubmit={sendSsoFactor} sx={{ display: 'grid', gap: 2.25 }}>
          {failure ? <Alert severity="error">{failure}</Alert> : <Alert severity="info">{t('sso.otpAsked')}</Alert>}
          <OneTimeCodeInput
            id="signin-sso-otp"
            name="otp"
            label={t('signIn.otp')}
            value={otp}
            onValueChange={setOtp}
            helperText={t('signIn.otpHelp')}
          />
          <Button type="submit" variant="contained" size="large" disabled={finishing || !otp.trim()}>
            {t('sso.continue')}
          </Button>
        </Box>
      ) : null}
      <Box component="form" noValidate onSubmit={signIn} sx={{ display: ssoFactor ? 'none' : 'grid', gap: 2.25 }}>
        {state.notice === 'registered' && !failure ? <Alert severity="success">{t('signUp.success')}</Alert> : null}
        {state.notice === 'expired' && !failure ? <Alert severity="info">{t('signIn.expired')}</Alert> : null}
        {failure ? <Alert severity="error">{failure}</Alert> : null}
        {ssoError && !failure ? (
          <Alert severity="error">{t(ssoError, { name: options?.sso?.name ?? '' })}</Alert>
        ) : null}
        {finishing ? <Alert severity="info">{t('sso.finishing')}</Alert> : null}
        {options?.sso ? (
          <>
            <Button variant="outlined" size="large" onClick={signInWithProvider} disabled={finishing}>
              {t('sso.button', { name: options.sso.name })}
            </Button>
            {showPasswordForm ? <Divider>{t('sso.or')}</Divider> : null}
          </>
        ) : null}
        {showPasswordForm ? (
          <>
            <TextInput
              {...form.field('login')}
              label={t('signIn.login')}
              type="email"
              // "webauthn": the browser may offer the site's passkeys among the suggestions (PasskeySignIn).
              autoComplete="username webauthn"
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
            {otpAsked ? (
              <>
                {failure ? null : <Alert severity="info">{t('signIn.otpAsked')}</Alert>}
                <OneTimeCodeInput
                  id="signin-otp"
                  name="otp"
                  label={t('signIn.otp')}
                  value={otp}
                  onValueChange={setOtp}
                  helperText={t('signIn.otpHelp')}
                />
              </>
            ) : null}
            <FormControlLabel control={<Checkbox {...form.checkbox('remember')} />} label={t('signIn.remember')} />
            {/* Sign-up is offered only when it can work: no account yet, or ALLOW_SIGNUP. */}
            <AuthActions
              busy={form.submitting}
              submitLabel={t('signIn.submit')}
              {...(signUpOpen
                ? { question: t('signIn.noAccount'), linkLabel: t('signIn.toSignUp'), to: '/signup' }
                : {})}
            />
          </>
        ) : null}
        {/* Passkeys only where the server has PUBLIC_URL (issue 47): shown once the options say so. */}
        {options?.passkeys ? (
          <PasskeySignIn onSignedIn={(user) => signedIn(user, form.values.remember)} onProblem={setFailure} />
        ) : null}
      </Box>
    </AuthLayout>
  );
}
