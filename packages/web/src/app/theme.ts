/**
 * The console's look: a night-navy radio console with a teal signal colour and an amber accent (the colour
 * of a transmit lamp). Contrast: white on primary 6.3:1, text on paper above 12:1; keyboard focus always
 * shows an amber ring of at least 3:1 against what surrounds it.
 */

import type { Localization } from '@mui/material/locale';
import { createTheme, type Theme } from '@mui/material/styles';

export const consoleColors = {
  navy: '#0f2537',
  navyRaised: '#16324a',
  navyText: '#e3edf5',
  navyMuted: '#9db4c6',
  signal: '#3fbfb4',
  amber: '#f2a541',
} as const;

/** Keyboard focus: a dark amber ring on light surfaces (5:1 on white); dark surfaces use onDarkFocus. */
const focusRing = {
  outline: '3px solid #b45309',
  outlineOffset: 2,
} as const;

/** For the navy top bar and sidebar: the light amber ring (7.6:1 on navy). */
export const onDarkFocus = {
  '& .Mui-focusVisible, & :focus-visible': { outlineColor: consoleColors.amber },
} as const;

export function createConsoleTheme(localization?: Localization): Theme {
  return createTheme(
    {
      palette: {
        mode: 'light',
        primary: { main: '#0b6b6b', dark: '#064c4d', light: '#3a9593', contrastText: '#ffffff' },
        secondary: { main: consoleColors.amber, dark: '#c77d1a', light: '#f7c47e', contrastText: '#1b1f24' },
        error: { main: '#b3261e' },
        warning: { main: '#a35a00' },
        success: { main: '#1e7d3a' },
        info: { main: '#1d5f8a' },
        background: { default: '#f1f4f7', paper: '#ffffff' },
        text: { primary: '#14212b', secondary: '#46586a' },
        divider: 'rgba(15, 37, 55, 0.12)',
      },
      shape: { borderRadius: 10 },
      typography: {
        fontFamily:
          '"Inter", "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
        h1: { fontSize: '1.75rem', fontWeight: 700, letterSpacing: '-0.01em' },
        h2: { fontSize: '1.4rem', fontWeight: 700 },
        h3: { fontSize: '1.2rem', fontWeight: 650 },
        h4: { fontSize: '1.1rem', fontWeight: 650 },
        h5: { fontSize: '1rem', fontWeight: 650 },
        h6: { fontSize: '0.95rem', fontWeight: 650 },
        button: { textTransform: 'none', fontWeight: 600, letterSpacing: 0 },
        overline: { fontWeight: 700, letterSpacing: '0.08em' },
      },
      components: {
        MuiCssBaseline: {
          styleOverrides: {
            body: { WebkitFontSmoothing: 'antialiased' },
            ':focus-visible': focusRing,
            '@media (prefers-reduced-motion: reduce)': {
              '*, *::before, *::after': {
                animationDuration: '0.01ms !important',
                transitionDuration: '0.01ms !important',
              },
            },
          },
        },
        MuiButtonBase: {
          defaultProps: { disableRipple: false },
          styleOverrides: { root: { '&.Mui-focusVisible': focusRing } },
        },
        MuiButton: {
          defaultProps: { disableElevation: true },
          styleOverrides: { root: { borderRadius: 8, paddingInline: 18 }, sizeLarge: { minHeight: 48 } },
        },
        MuiIconButton: {
          styleOverrides: { root: { '&.Mui-focusVisible': focusRing } },
        },
        MuiAppBar: { defaultProps: { elevation: 0 } },
        MuiPaper: { styleOverrides: { rounded: { borderRadius: 14 } } },
        MuiCard: {
          defaultProps: { variant: 'outlined' },
        },
        MuiTextField: { defaultProps: { fullWidth: true } },
        MuiOutlinedInput: {
          styleOverrides: {
            root: { backgroundColor: '#ffffff' },
            notchedOutline: { borderColor: 'rgba(15, 37, 55, 0.32)' },
          },
        },
        MuiFormHelperText: { styleOverrides: { root: { marginInline: 2 } } },
        MuiAlert: { styleOverrides: { root: { borderRadius: 10 } } },
        MuiDialog: {
          styleOverrides: {
            // Phones: a 16px margin instead of 32px leaves room for two buttons side by side.
            // Below the SOS band when there is one (EmergencyCenter's --sos-band-height): it covers no dialog's
            // title or fields (issue 58).
            container: { paddingTop: 'var(--sos-band-height, 0px)', boxSizing: 'border-box' },
            paper: { borderRadius: 16, '@media (max-width: 599.95px)': { margin: 16 } },
            paperFullWidth: { '@media (max-width: 599.95px)': { width: 'calc(100% - 32px)' } },
          },
        },
        MuiDialogActions: { styleOverrides: { root: { flexWrap: 'wrap', rowGap: 8 } } },
        MuiTooltip: { defaultProps: { arrow: true } },
      },
    },
    ...(localization ? [localization] : []),
  );
}
