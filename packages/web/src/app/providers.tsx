/** Everything the pages share: server state (TanStack Query), the theme in the current language, dialogs. */
import CssBaseline from '@mui/material/CssBaseline';
import { deDE, enUS, frFR, type Localization } from '@mui/material/locale';
import { ThemeProvider } from '@mui/material/styles';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { shouldRetry } from '../api/client.ts';
import { ConfirmProvider } from '../components/ConfirmProvider.tsx';
import { NotifyProvider } from '../components/Notifier.tsx';
import { type Language, toLanguage } from '../i18n/languages.ts';
import { createConsoleTheme } from './theme.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: shouldRetry, staleTime: 15_000, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

const MUI_LOCALES: Record<Language, Localization> = { fr: frFR, en: enUS, de: deDE };

export function Providers({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const language = toLanguage(i18n.resolvedLanguage);
  const theme = useMemo(() => createConsoleTheme(MUI_LOCALES[language]), [language]);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <NotifyProvider>
          <ConfirmProvider>{children}</ConfirmProvider>
        </NotifyProvider>
      </ThemeProvider>
    </QueryClientProvider>
  );
}
