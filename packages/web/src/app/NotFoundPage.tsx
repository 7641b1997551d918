/** /notFound and every unknown path (spec section 2). */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Logo } from '../components/Logo.tsx';
import { usePageTitle } from '../components/PageHeader.tsx';

export default function NotFoundPage() {
  const { t } = useTranslation();
  usePageTitle(t('notFound.title'));
  return (
    <Box
      component="main"
      sx={{ minHeight: '100dvh', display: 'grid', placeItems: 'center', p: 3, bgcolor: 'background.default' }}
    >
      <Box sx={{ textAlign: 'center', maxWidth: 520 }}>
        <Logo size={56} />
        <Typography
          aria-hidden
          sx={{ fontSize: { xs: '4.5rem', sm: '6rem' }, fontWeight: 800, color: 'primary.main', lineHeight: 1, mt: 2 }}
        >
          404
        </Typography>
        <Typography variant="h1" component="h1" sx={{ mt: 1 }}>
          {t('notFound.title')}
        </Typography>
        <Typography sx={{ mt: 1.5, color: 'text.secondary', fontSize: '1.1rem' }}>{t('notFound.message')}</Typography>
        <Button component={RouterLink} to="/" variant="contained" size="large" sx={{ mt: 4 }}>
          {t('actions.backHome')}
        </Button>
      </Box>
    </Box>
  );
}
