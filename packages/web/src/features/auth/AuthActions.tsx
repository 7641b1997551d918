/** The end of the sign-in and sign-up forms: the submit button (a spinner while busy) and, when given, the link to the other page. */
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import type { SxProps, Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';

export interface AuthActionsProps {
  busy: boolean;
  submitLabel: string;
  submitSx?: SxProps<Theme>;
  /** 'Pas de compte ?' before the link; no link without it. */
  question?: string;
  linkLabel?: string;
  to?: string;
}

export function AuthActions({ busy, submitLabel, submitSx, question, linkLabel, to }: AuthActionsProps) {
  return (
    <>
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={busy}
        startIcon={busy ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
        sx={submitSx}
      >
        {submitLabel}
      </Button>
      {question && linkLabel && to ? (
        <Typography variant="body2" sx={{ textAlign: 'center', color: 'text.secondary' }}>
          {question}{' '}
          <Link component={RouterLink} to={to} sx={{ fontWeight: 600 }}>
            {linkLabel}
          </Link>
        </Typography>
      ) : null}
    </>
  );
}
