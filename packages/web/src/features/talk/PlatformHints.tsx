/**
 * What the browser will not do, said where it matters: a microphone only on a secure page (https, or
 * localhost), and a page in the background may be suspended (talking and hearing need the app in front).
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

export function ForegroundHint() {
  const { t } = useTranslation('talk');
  return (
    <Alert severity="info" variant="outlined" sx={{ py: 0 }}>
      {t('hints.foreground')}
    </Alert>
  );
}
