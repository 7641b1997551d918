/** The mark of a gateway's call beside its name: an antenna, named "Passerelle" for screen readers and on hover. */
import SettingsInputAntennaIcon from '@mui/icons-material/SettingsInputAntenna';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';

export function GatewayMark({ fontSize = 'small' }: { fontSize?: 'inherit' | 'small' | 'medium' }) {
  const { t } = useTranslation('room');
  const label = t('gateway.mark');
  return (
    <Box
      component="span"
      role="img"
      aria-label={label}
      title={label}
      sx={{ display: 'inline-flex', alignItems: 'center', color: 'info.dark', flexShrink: 0 }}
    >
      <SettingsInputAntennaIcon fontSize={fontSize} aria-hidden />
    </Box>
  );
}
