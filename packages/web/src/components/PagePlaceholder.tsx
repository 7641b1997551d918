/** Stands in for a page until its feature is built: the page's title and a short note. */
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PageHeader } from './PageHeader.tsx';

export function PagePlaceholder({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={title} />
      <Paper variant="outlined" sx={{ p: 4 }}>
        <Typography sx={{ color: 'text.secondary' }}>{t('placeholder')}</Typography>
      </Paper>
    </>
  );
}
