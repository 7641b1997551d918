/** A clear sentence when there is no microphone (the room keeps working: the user still hears and chats). */
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { useTranslation } from 'react-i18next';
import type { MediaProblem } from './localMedia.ts';

export function MediaProblemAlert({ problem, video = false }: { problem: MediaProblem | null; video?: boolean }) {
  const { t } = useTranslation('room');
  if (!problem) return null;
  return (
    <Alert severity="warning" role="alert" sx={{ textAlign: 'left' }}>
      <AlertTitle>{video ? t('media.titleVideo') : t('media.title')}</AlertTitle>
      {t(`media.${problem}`)} {t('media.stillListening')}
    </Alert>
  );
}
