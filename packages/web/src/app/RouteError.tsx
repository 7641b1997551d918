/** Shown when a page throws or its code cannot be loaded (for example after an upgrade): offer a reload. */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  console.error(error);
  return (
    <Box component="main" sx={{ display: 'grid', placeItems: 'center', minHeight: '100dvh', p: 2 }}>
      <Alert
        severity="error"
        sx={{ maxWidth: 520 }}
        action={
          <Button color="inherit" onClick={() => window.location.reload()}>
            {t('actions.retry')}
          </Button>
        }
      >
        <AlertTitle>{t('errors.somethingWrong')}</AlertTitle>
        {t('errors.pageFailed')}
      </Alert>
    </Box>
  );
}
