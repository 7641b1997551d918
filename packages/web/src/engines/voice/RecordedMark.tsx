/** The "recorded" mark: this channel keeps every transmission in its voice history (issue 15). */
import FiberManualRecordIcon from '@mui/icons-material/FiberManualRecord';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';

export function RecordedMark() {
  const { t } = useTranslation('room');
  return (
    <Chip
      size="small"
      color="error"
      variant="outlined"
      icon={<FiberManualRecordIcon fontSize="small" />}
      label={t('history.recorded')}
      title={t('history.recordedHint')}
    />
  );
}
