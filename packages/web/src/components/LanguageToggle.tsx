/** Fr / En / De buttons (the sign-in and sign-up pages); the shell offers the same choice in its menu. */
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, toLanguage } from '../i18n/languages.ts';

export function LanguageToggle({ label }: { label: string }) {
  const { i18n } = useTranslation();
  const current = toLanguage(i18n.resolvedLanguage);
  return (
    <ToggleButtonGroup
      exclusive
      size="small"
      value={current}
      aria-label={label}
      onChange={(_event, value: string | null) => value && void i18n.changeLanguage(value)}
      sx={{
        bgcolor: 'background.paper',
        '& .MuiToggleButton-root': { px: 1.5, color: 'text.secondary' },
        '& .MuiToggleButton-root.Mui-selected': { color: 'primary.contrastText', bgcolor: 'primary.main' },
        '& .MuiToggleButton-root.Mui-selected:hover': { bgcolor: 'primary.dark' },
      }}
    >
      {LANGUAGES.map((language) => (
        <ToggleButton key={language.code} value={language.code} lang={language.code} title={language.name}>
          {language.short}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
