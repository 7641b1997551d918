/** "Sessions" on /account (issue 38): where one is signed in, each other session ended from here. */
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { SessionsList } from '../../components/SessionsList.tsx';
import { AccountSection } from './AccountPage.tsx';

export function SessionsSection() {
  const { t } = useTranslation('account');
  return (
    <AccountSection id="sessions" title={t('sessions.title')}>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
        {t('sessions.explain')}
      </Typography>
      <SessionsList />
    </AccountSection>
  );
}
