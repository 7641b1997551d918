/**
 * The functional aliases a user holds (issue 59), beside its name: "Chef de quart" in a small outlined chip,
 * read as "Fonction : Chef de quart". Nothing when it holds none.
 */
import BadgeIcon from '@mui/icons-material/BadgeOutlined';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';

export function AliasTag({ alias }: { alias: string | undefined }) {
  const { t } = useTranslation('common');
  if (!alias) return null;
  return (
    <Chip
      size="small"
      variant="outlined"
      icon={<BadgeIcon aria-hidden />}
      label={alias}
      // Read as one thing, "Fonction : Chef de quart" (a bare aria-label on a div would be ignored).
      role="img"
      aria-label={t('alias', { alias })}
      title={t('alias', { alias })}
      sx={{ height: 22, maxWidth: 200, '& .MuiChip-label': { px: 0.75 } }}
    />
  );
}
