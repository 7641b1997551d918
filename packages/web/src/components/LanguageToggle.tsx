/** Fr / En / De buttons (the sign-in and sign-up pages); the shell offers the same choice in its menu. */
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, toLanguage } from '../i18n/languages.ts';

export function LanguageToggle({ label, tone = 'light' }: { label: string; tone?: 'light' | 'dark' }) {
  const { i18n } = useTranslation();
  const current = toLanguage(i18n.resolvedLanguage);
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      value={current}
      aria-label={label}
      onChange={(_event, value: string | null) => value && void i18n.changeLanguage(value)}
      sx={
        tone === 'dark'
          ? {
              '& .MuiToggleButton-root': { color: '#d5e3ee', borderColor: 'rgba(255,255,255,0.28)', px: 1.5 },
              '& .MuiToggleButton-root.Mui-selected': { color: '#0f2537', bgcolor: '#f2a541' },
              '& .MuiToggleButton-root.Mui-selected:hover': { bgcolor: '#f7c47e' },
            }
          : { '& .MuiToggleButton-root': { px: 1.5 } }
      }
    >
      {LANGUAGES.map((language) => (
        <ToggleButton key={language.code} value={language.code} lang={language.code} title={language.name}>
          {language.short}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
