/**
 * The line above a bubble in the chat's timeline (a message or a recorded transmission): who wrote or talked
 * ('Me' for the reader, passed in as `name`) and the time as 'd MMM, HH:mm' in the reader's language.
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { CHAT_TIME_PATTERN, formatDate } from '../../../i18n/dates.ts';

export interface BubbleHeaderProps {
  /** The sender's name, or 'Me' on the reader's own bubbles. */
  name: string;
  own: boolean;
  /** ISO date of the message or transmission. */
  createdAt: string;
}

export function BubbleHeader({ name, own, createdAt }: BubbleHeaderProps) {
  const { i18n } = useTranslation('room');
  return (
    <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1, px: 0.5, mb: 0.25 }}>
      <Typography variant="caption" sx={{ fontWeight: 700, color: own ? 'primary.dark' : 'text.primary' }}>
        {name}
      </Typography>
      <Typography variant="caption" component="time" dateTime={createdAt} sx={{ color: 'text.secondary' }}>
        {formatDate(createdAt, CHAT_TIME_PATTERN, i18n.resolvedLanguage)}
      </Typography>
    </Box>
  );
}
