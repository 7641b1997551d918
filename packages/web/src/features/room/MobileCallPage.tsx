import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { PagePlaceholder } from '../../components/PagePlaceholder.tsx';

/** Placeholder until the call views are built (outside the shell, no guard): lazy-loaded default export. */
export default function MobileCallPage() {
  const { t } = useTranslation('room');
  return (
    <Box component="main" sx={{ p: { xs: 2, sm: 4 } }}>
      <PagePlaceholder title={t('mobileCall.title')} />
    </Box>
  );
}
