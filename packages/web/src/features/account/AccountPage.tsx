/**
 * The user's own account (/account, issue 38), for every role, reached from the account menu of the console
 * and of /talk: its passkeys, its second factor and where it is signed in. Each part is a section of its
 * own (a heading, then its controls); this page only frames them and leads back home.
 */
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { homeOf, useSession } from '../../api/session.ts';

export interface AccountPageProps {
  /** The account menu (language, logout), which lives in the app layer. */
  accountMenu?: ReactNode;
  /** The sections, in order. */
  children?: ReactNode;
}

export function AccountPage({ accountMenu, children }: AccountPageProps) {
  const { t } = useTranslation('account');
  const session = useSession();
  return (
    <Box sx={{ minHeight: '100dvh', bgcolor: 'background.default' }}>
      <AppBar position="static" color="primary" elevation={0}>
        <Toolbar sx={{ gap: 1 }}>
          <Button color="inherit" component={RouterLink} to={homeOf(session)} startIcon={<ArrowBackIcon />}>
            {t('back')}
          </Button>
          <Box sx={{ flex: 1 }} />
          {accountMenu}
        </Toolbar>
      </AppBar>
      <Container component="main" maxWidth="md" sx={{ py: { xs: 2, sm: 4 } }}>
        <Typography variant="h4" component="h1" sx={{ mb: 3 }}>
          {t('title')}
        </Typography>
        <Stack spacing={3}>{children}</Stack>
      </Container>
    </Box>
  );
}

/** One part of the page: a titled card whose heading names it for assistive technology. */
export function AccountSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Box
      component="section"
      aria-labelledby={`${id}-title`}
      sx={{ bgcolor: 'background.paper', borderRadius: 2, p: { xs: 2, sm: 3 }, boxShadow: 1 }}
    >
      <Typography id={`${id}-title`} variant="h6" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}
