/**
 * A dialog's own message ('User not created' + 'Vérifier que tous les champs sont remplis.'): shown inside the
 * dialog, where the eye is and where screen readers hear it (a modal hides the rest of the page, snackbar
 * included, from assistive technology). Props: `notice` (null = nothing shown).
 */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import type { Notice } from './Notifier.tsx';

export function DialogAlert({ notice }: { notice: Notice | null }) {
  if (!notice) return null;
  return (
    <Alert severity={notice.severity ?? 'error'} role="alert" sx={{ mb: 2 }}>
      {notice.title ? <AlertTitle sx={{ fontWeight: 700 }}>{notice.title}</AlertTitle> : null}
      {notice.message}
    </Alert>
  );
}
