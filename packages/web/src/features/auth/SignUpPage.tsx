/**
 * Sign-up (spec sections 2, 4, 5): first name, last name, login, password, phone number. On an empty
 * database the server makes this account the administrator; afterwards it refuses (403) with a sentence,
 * shown as is. Success goes to /signin, which shows 'Register successfully' with the login filled in.
 */

import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { leftTrim, SignUpUser } from '@talkgroup/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api, errorMessage } from '../../api/client.ts';
import { TextInput } from '../../components/TextInput.tsx';
import { AuthActions } from './AuthActions.tsx';
import { AuthLayout } from './AuthLayout.tsx';
import { loginProblem, passwordHint, requiredProblem } from './fields.ts';
import { PasswordField } from './PasswordField.tsx';
import type { SignInNotice } from './SignInPage.tsx';
import { useAuthForm } from './useAuthForm.ts';

export default function SignUpPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useAuthForm(
    { firstName: '', lastName: '', login: '', password: '', phone: '' },
    { firstName: requiredProblem, lastName: requiredProblem, login: loginProblem, password: requiredProblem },
    (name) => `signup-${name}`,
  );
  const message = (key: ReturnType<typeof form.error>) => (key ? t(key) : undefined);
  const hint = form.dirty('password') ? passwordHint(form.values.password) : undefined;

  const signUp = form.onSubmit(async (values) => {
    setFailure(null);
    const login = values.login.trim();
    try {
      const response = await api(
        SignUpUser,
        {
          firstName: leftTrim(values.firstName),
          lastName: leftTrim(values.lastName),
          email: login,
          password: values.password,
          phone_number: leftTrim(values.phone),
        },
        { anonymous: true },
      );
      if (!response.success) throw new Error('sign-up refused');
      navigate('/signin', { replace: true, state: { notice: 'registered', login } satisfies SignInNotice });
    } catch (error) {
      setFailure(errorMessage(error, t('signUp.error')));
    }
  });

  return (
    <AuthLayout
      title={t('signUp.title')}
      subtitle={t('signUp.subtitle')}
      footer={
        <Typography component="p" variant="body2">
          {t('signUp.copyright', { year: new Date().getFullYear() })}
        </Typography>
      }
    >
      <Box component="form" noValidate onSubmit={signUp} sx={{ display: 'grid', gap: 2 }}>
        {failure ? (
          <Alert severity="error">
            <AlertTitle>{t('signUp.refused')}</AlertTitle>
            {failure}
          </Alert>
        ) : null}
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          <TextInput
            {...form.field('firstName')}
            label={t('signUp.firstName')}
            autoComplete="given-name"
            autoFocus
            required
            helperText={message(form.error('firstName'))}
          />
          <TextInput
            {...form.field('lastName')}
            label={t('signUp.lastName')}
            autoComplete="family-name"
            required
            helperText={message(form.error('lastName'))}
          />
        </Box>
        <TextInput
          {...form.field('login')}
          label={t('signUp.login')}
          type="email"
          autoComplete="username"
          required
          helperText={message(form.error('login'))}
        />
        <PasswordField
          {...form.field('password')}
          label={t('signUp.password')}
          autoComplete="new-password"
          required
          helperText={message(form.error('password')) ?? message(hint)}
          helperTone="warning"
        />
        {/* Spec section 5: the phone number is labelled required but not checked. */}
        <TextInput {...form.field('phone')} label={t('signUp.phone')} type="tel" autoComplete="tel" required />
        <AuthActions
          busy={form.submitting}
          submitLabel={t('signUp.submit')}
          submitSx={{ mt: 0.5 }}
          question={t('signUp.haveAccount')}
          linkLabel={t('signUp.toSignIn')}
          to="/signin"
        />
      </Box>
    </AuthLayout>
  );
}
