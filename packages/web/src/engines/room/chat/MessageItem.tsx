/** One text or image message of the room's chat: its author and time, the bubble, download and delete. */
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DownloadIcon from '@mui/icons-material/Download';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Message } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { BubbleHeader } from './BubbleHeader.tsx';

/** `onDelete` only where the reader may delete: its own messages, or any for an administrator. */
export function MessageItem({ message, own, onDelete }: { message: Message; own: boolean; onDelete?: () => void }) {
  const { t } = useTranslation('room');
  const author = own ? t('chat.me') : message.user.display_name || t('chat.formerUser');
  return (
    <Box
      component="li"
      data-message-id={message.id}
      aria-label={t('chat.messageFrom', { name: author })}
      sx={{ display: 'flex', flexDirection: 'column', alignItems: own ? 'flex-end' : 'flex-start', listStyle: 'none' }}
    >
      <BubbleHeader name={author} own={own} createdAt={message.createdAt} />
      <Box
        sx={{
          display: 'flex',
          alignItems: 'flex-start',
          gap: 0.25,
          flexDirection: own ? 'row-reverse' : 'row',
          maxWidth: '100%',
        }}
      >
        <Box
          sx={{
            maxWidth: 300,
            minWidth: 0,
            px: 1.5,
            py: 1,
            borderRadius: 2.5,
            borderTopRightRadius: own ? 4 : undefined,
            borderTopLeftRadius: own ? undefined : 4,
            bgcolor: own ? 'primary.main' : 'background.paper',
            color: own ? 'primary.contrastText' : 'text.primary',
            border: own ? 0 : '1px solid',
            borderColor: 'divider',
          }}
        >
          {message.file ? (
            <Box
              component="a"
              href={message.file.path}
              target="_blank"
              rel="noopener noreferrer"
              sx={{ display: 'block', mb: message.textMsg ? 0.75 : 0 }}
            >
              <Box
                component="img"
                src={message.file.path}
                alt={message.file.fileName}
                loading="lazy"
                sx={{
                  display: 'block',
                  maxWidth: '100%',
                  maxHeight: 220,
                  borderRadius: 1.5,
                  bgcolor: 'rgba(0,0,0,0.06)',
                }}
              />
            </Box>
          ) : null}
          {message.textMsg ? (
            <Typography
              variant="body2"
              data-testid="message-text"
              sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
            >
              {message.textMsg}
            </Typography>
          ) : null}
        </Box>
        <Box sx={{ display: 'flex', flexDirection: 'column' }}>
          {message.file ? (
            <Tooltip title={t('chat.download')}>
              <IconButton
                size="small"
                component="a"
                href={message.file.path}
                download={message.file.fileName}
                aria-label={t('chat.downloadNamed', { name: message.file.fileName })}
              >
                <DownloadIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          ) : null}
          {onDelete ? (
            <Tooltip title={t('chat.delete')}>
              <IconButton size="small" onClick={onDelete} aria-label={t('chat.delete')}>
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          ) : null}
        </Box>
      </Box>
    </Box>
  );
}
