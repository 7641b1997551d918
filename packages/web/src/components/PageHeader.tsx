/** A page's title (its one <h1>, also the tab title) with optional actions on the right. */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { type ReactNode, useEffect } from 'react';

export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    if (title) document.title = `${title} · Talkgroup`;
  }, [title]);
}

export interface PageHeaderProps {
  title: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
  /** On a screen at most this high, the subtitle goes and the header tightens (a console's tiles come first). */
  compactBelowHeight?: number;
}

export function PageHeader({ title, subtitle, actions, compactBelowHeight }: PageHeaderProps) {
  usePageTitle(title);
  const compact = compactBelowHeight
    ? { [`@media (max-height: ${compactBelowHeight}px)`]: { mb: 1.5, '& [data-subtitle]': { display: 'none' } } }
    : {};
  return (
    <Box
      component="header"
      sx={{
        display: 'flex',
        alignItems: 'center',
        flexWrap: 'wrap',
        gap: 2,
        mb: 3,
        justifyContent: 'space-between',
        ...compact,
      }}
    >
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="h1" component="h1">
          {title}
        </Typography>
        {subtitle ? (
          <Typography variant="body2" data-subtitle sx={{ color: 'text.secondary', mt: 0.5 }}>
            {subtitle}
          </Typography>
        ) : null}
      </Box>
      {actions ? <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>{actions}</Box> : null}
    </Box>
  );
}
