/**
 * /device-disabled (issue 60 item 5): where a page lands once an administrator disabled its device and it wiped
 * what it kept (api/deviceWipe.ts). It says so, and offers nothing but signing in again: no shell, no way back.
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Logo } from '../components/Logo.tsx';
import { usePageTitle } from '../components/PageHeader.tsx';

export default function DeviceDisabledPage() {
  const { t } = useTranslation();
  usePageTitle(t('deviceDisabled.title'));
  // Nothing is kept here, not even the language the page was opened in (it came in the address).
  useEffect(() => {
    try {
      localStorage.clear();
      sessionStorage.clear();
    } catch {
      // Storage disabled: nothing kept.
    }
  }, []);
  return (
    <Box
      component="main"
      sx={{ minHeight: '100dvh', display: 'grid', placeItems: 'center', p: 3, bgcolor: 'background.default' }}
    >
      <Box sx={{ textAlign: 'center', maxWidth: 560 }}>
        <Logo size={56} />
        <Typography variant="h1" component="h1" sx={{ mt: 3, fontSize: { xs: '1.6rem', sm: '2rem' } }}>
          {t('deviceDisabled.title')}
        </Typography>
        <Typography sx={{ mt: 1.5, color: 'text.secondary', fontSize: '1.1rem' }}>
          {t('deviceDisabled.message')}
        </Typography>
        {/* A full load of the sign-in page: nothing of the disabled session stays in memory. */}
        <Button href="/signin" variant="contained" size="large" sx={{ mt: 4 }}>
          {t('deviceDisabled.signIn')}
        </Button>
      </Box>
    </Box>
  );
}
