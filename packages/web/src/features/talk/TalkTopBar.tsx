/**
 * The members' app top bar: an optional way back, the page's title (its h1), the member's own status (issue 49)
 * and what goes at the right.
 */
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { MyAliases } from './MyAliases.tsx';
import { MyStatus } from './MyStatus.tsx';

export const TALK_BAR_COLOUR = '#0f2537';

export function TalkTopBar({
  title,
  back,
  end,
}: {
  title: string;
  back?: { to: string; label: string };
  end?: ReactNode;
}) {
  return (
    <Box
      component="header"
      sx={{
        bgcolor: TALK_BAR_COLOUR,
        color: '#fff',
        px: 1,
        pt: 'calc(6px + env(safe-area-inset-top))',
        pb: 0.75,
        minHeight: 56,
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: 0.5,
        '& .Mui-focusVisible, & :focus-visible': { outlineColor: '#f2a541' },
      }}
    >
      {back ? (
        <IconButton
          component={RouterLink}
          to={back.to}
          aria-label={back.label}
          color="inherit"
          sx={{ width: 48, height: 48 }}
        >
          <ArrowBackIcon />
        </IconButton>
      ) : null}
      {/* The title is never cut (issue 58: "Ta…" at 390 px): it wraps, and the status and menu go to a line below. */}
      <Typography
        component="h1"
        sx={{
          fontWeight: 700,
          fontSize: '1.2rem',
          flex: '1 0 auto',
          maxWidth: '100%',
          overflowWrap: 'anywhere',
          pl: back ? 0 : 1,
        }}
      >
        {title}
      </Typography>
      <MyStatus />
      <MyAliases />
      {end}
    </Box>
  );
}
