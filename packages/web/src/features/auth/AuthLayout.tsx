/** The frame of the sign-in and sign-up pages: the brand panel (wide screens), the form card, a footer. */
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageToggle } from '../../components/LanguageToggle.tsx';
import { Logo } from '../../components/Logo.tsx';
import { usePageTitle } from '../../components/PageHeader.tsx';

const NAVY = '#0f2537';

/** Concentric rings, like a signal spreading from the transmit lamp. */
const waves = `radial-gradient(circle at 18% 82%, #f2a541 0 7px, rgba(242,165,65,0.35) 8px, transparent 22px),
  repeating-radial-gradient(circle at 18% 82%, rgba(63,191,180,0.16) 0 2px, transparent 3px 46px),
  radial-gradient(circle at 80% 10%, rgba(11,107,107,0.55), transparent 55%),
  linear-gradient(160deg, #12314a 0%, ${NAVY} 60%, #0a1a28 100%)`;

export interface AuthLayoutProps {
  title: string;
  subtitle?: ReactNode;
  footer: ReactNode;
  children: ReactNode;
}

export function AuthLayout({ title, subtitle, footer, children }: AuthLayoutProps) {
  const { t } = useTranslation('auth');
  const { t: tc } = useTranslation();
  usePageTitle(title);
  return (
    <Box
      sx={{
        minHeight: '100dvh',
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 1fr) minmax(460px, 1fr)' },
        bgcolor: 'background.default',
      }}
    >
      <Box
        component="aside"
        sx={{
          display: { xs: 'none', md: 'flex' },
          flexDirection: 'column',
          justifyContent: 'space-between',
          p: 6,
          color: '#e3edf5',
          background: waves,
        }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
          <Logo size={44} />
          <Typography sx={{ fontSize: '1.4rem', fontWeight: 700, letterSpacing: '0.01em' }}>{tc('appName')}</Typography>
        </Box>
        <Box sx={{ maxWidth: 460 }}>
          <Typography variant="overline" sx={{ color: '#f2a541' }}>
            {tc('tagline')}
          </Typography>
          <Typography sx={{ fontSize: { md: '2rem', lg: '2.5rem' }, fontWeight: 750, lineHeight: 1.15, mt: 1 }}>
            {t('brand.headline')}
          </Typography>
          <Typography sx={{ mt: 2, color: '#b6c9d8', fontSize: '1.05rem' }}>{t('brand.points')}</Typography>
        </Box>
        <Box />
      </Box>

      <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100dvh' }}>
        <Box
          component="header"
          sx={{
            display: 'flex',
            alignItems: 'center',
            justifyContent: { xs: 'space-between', md: 'flex-end' },
            px: { xs: 2, sm: 4 },
            pt: { xs: 2, sm: 3 },
          }}
        >
          <Box sx={{ display: { xs: 'flex', md: 'none' }, alignItems: 'center', gap: 1 }}>
            <Logo size={32} />
            <Typography sx={{ fontWeight: 700, fontSize: '1.15rem', color: NAVY }}>{tc('appName')}</Typography>
          </Box>
          <LanguageToggle label={t('language')} />
        </Box>

        <Box
          component="main"
          sx={{ flex: 1, display: 'grid', placeItems: 'center', px: { xs: 2, sm: 4 }, py: { xs: 3, sm: 4 } }}
        >
          <Paper
            variant="outlined"
            sx={{
              width: '100%',
              maxWidth: 440,
              p: { xs: 3, sm: 4 },
              boxShadow: '0 18px 40px -24px rgba(15,37,55,0.45)',
            }}
          >
            <Typography variant="h1" component="h1" sx={{ mb: subtitle ? 0.75 : 3 }}>
              {title}
            </Typography>
            {subtitle ? (
              <Typography variant="body2" sx={{ color: 'text.secondary', mb: 3 }}>
                {subtitle}
              </Typography>
            ) : null}
            {children}
          </Paper>
        </Box>

        <Box
          component="footer"
          sx={{ textAlign: 'center', pb: 3, px: 2, color: 'text.secondary', typography: 'body2' }}
        >
          {footer}
        </Box>
      </Box>
    </Box>
  );
}
