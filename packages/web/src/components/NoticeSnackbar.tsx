/** The snackbar of Notifier.tsx, in its own chunk. */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Snackbar from '@mui/material/Snackbar';
import type { Notice } from './Notifier.tsx';

export default function NoticeSnackbar({
  notice,
  open,
  onClose,
}: {
  notice: Notice;
  open: boolean;
  onClose: () => void;
}) {
  const severity = notice.severity ?? 'info';
  const { action } = notice;
  return (
    <Snackbar
      open={open}
      autoHideDuration={notice.duration ?? (severity === 'error' || action ? 8000 : 4000)}
      onClose={(_event, reason) => reason !== 'clickaway' && onClose()}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      <Alert
        severity={severity}
        variant="filled"
        onClose={onClose}
        action={
          action ? (
            <Button
              color="inherit"
              size="small"
              sx={{ fontWeight: 700 }}
              onClick={() => {
                onClose();
                action.onClick();
              }}
            >
              {action.label}
            </Button>
          ) : undefined
        }
        sx={{ minWidth: 280 }}
      >
        {notice.title ? <AlertTitle>{notice.title}</AlertTitle> : null}
        {notice.message}
      </Alert>
    </Snackbar>
  );
}
