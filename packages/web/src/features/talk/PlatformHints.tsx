/**
 * What the browser will not do, said where it matters: a microphone only on a secure page (https, or
 * localhost). What works with the screen off or the app closed is in docs/members/phone-app.md ("The phone in a pocket").
 */
import Alert from '@mui/material/Alert';
import { useTranslation } from 'react-i18next';

export function SecureContextHint() {
  const { t } = useTranslation('talk');
  if (window.isSecureContext) return null;
  return (
    <Alert severity="warning" role="alert">
      {t('hints.insecure', { origin: window.location.origin })}
    </Alert>
  );
}
