/**
 * The messaging panel of a room (spec sections 2, 4 and 5): the history and live messages, own messages
 * labelled 'Me', the time as 'd MMM , HH:mm' in the reader's language, a delete icon on the messages the
 * reader may delete (its own; any for an administrator; 'Are you sure?' first), a download icon on images, a text field with a send button (blank is not sent),
 * a paperclip opening the image upload dialog, and who is typing.
 * Every text is rendered as text: markup in a message shows as characters.
 */
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CloseIcon from '@mui/icons-material/Close';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DownloadIcon from '@mui/icons-material/Download';
import ForumIcon from '@mui/icons-material/ForumOutlined';
import SendIcon from '@mui/icons-material/Send';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Message } from '@talkgroup/protocol';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/client.ts';
import { useConfirm } from '../../../components/ConfirmProvider.tsx';
import { useNotify } from '../../../components/Notifier.tsx';
import { BubbleHeader } from './BubbleHeader.tsx';
import { UploadDialog } from './UploadDialog.tsx';
import type { useChat } from './useChat.ts';
import { useChatScroll } from './useChatScroll.ts';
import { VoiceBar } from './VoiceBar.tsx';
import { VoiceItem } from './VoiceItem.tsx';

type Chat = ReturnType<typeof useChat>;

/** `onDelete` only where the reader may delete: its own messages, or any for an administrator. */
function MessageItem({ message, own, onDelete }: { message: Message; own: boolean; onDelete?: () => void }) {
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

export interface ChatPanelProps {
  chat: Chat;
  userId: number | undefined;
  channelName: string;
  onClose?: () => void;
  /** Shown as an h2; false in layouts that have their own title. */
  showHeader?: boolean;
}

export function ChatPanel({ chat, userId, channelName, onClose, showHeader = true }: ChatPanelProps) {
  const { t } = useTranslation('room');
  const confirm = useConfirm();
  const notify = useNotify();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [uploadOpen, setUploadOpen] = useState(false);
  const listRef = useRef<HTMLUListElement | null>(null);
  const { voice } = chat;
  const timeline = [
    ...chat.messages.map((message) => ({ at: Date.parse(message.createdAt), message, item: undefined })),
    ...voice.items.map((item) => ({ at: Date.parse(item.createdAt), message: undefined, item })),
  ].sort((a, b) => a.at - b.at);
  const lastId = `${chat.messages[chat.messages.length - 1]?.id}:${voice.items.length}`;

  // New messages scroll into view unless the reader scrolled up to read older ones (then a button says so).
  const scroll = useChatScroll(listRef, lastId, !chat.isLoading);

  const send = async () => {
    if (!text.trim() || sending) return;
    setSending(true);
    try {
      scroll.stick();
      if (await chat.send(text)) setText('');
    } catch (error) {
      notify({ severity: 'error', title: t('chat.sendFailed'), message: errorMessage(error, t('chat.tryAgain')) });
    } finally {
      setSending(false);
    }
  };

  const remove = async (message: Message) => {
    if (!(await confirm({ title: t('chat.confirmDelete'), destructive: true, confirmLabel: t('chat.delete') }))) return;
    try {
      await chat.deleteMessage(message.id);
    } catch {
      // Spec section 8: 'Oops...', 'Something went wrong!', 'Please try again'.
      notify({ severity: 'error', title: t('chat.oops'), message: `${t('chat.wrong')} ${t('chat.tryAgain')}` });
    }
  };

  const removeVoice = async (id: number) => {
    if (!(await confirm({ title: t('chat.confirmDelete'), destructive: true, confirmLabel: t('chat.delete') }))) return;
    try {
      await voice.remove(id);
    } catch {
      notify({ severity: 'error', title: t('chat.oops'), message: `${t('chat.wrong')} ${t('chat.tryAgain')}` });
    }
  };

  const typingText =
    chat.typers.length === 0
      ? ''
      : chat.typers.length === 1
        ? t('chat.typingOne', { name: chat.typers[0].name })
        : t('chat.typingMany', { names: chat.typers.map((typer) => typer.name).join(', ') });

  return (
    <Box
      component="section"
      aria-label={t('chat.title')}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, bgcolor: '#f7f9fb' }}
    >
      {showHeader ? (
        <Box
          sx={{
            display: 'flex',
            alignItems: 'center',
            gap: 1,
            px: 2,
            py: 1.25,
            borderBottom: '1px solid',
            borderColor: 'divider',
            bgcolor: 'background.paper',
          }}
        >
          <ForumIcon sx={{ color: 'primary.main' }} aria-hidden />
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography component="h2" variant="h6">
              {t('chat.title')}
            </Typography>
            <Typography variant="caption" sx={{ color: 'text.secondary' }} noWrap component="p">
              {channelName}
            </Typography>
          </Box>
          {onClose ? (
            <IconButton onClick={onClose} aria-label={t('chat.close')}>
              <CloseIcon />
            </IconButton>
          ) : null}
        </Box>
      ) : null}

      <VoiceBar
        voice={voice}
        recording={chat.recording}
        exportChannel={
          chat.canExport && chat.channelId !== undefined
            ? { id: chat.channelId, name: channelName, rtcSession: chat.room ?? channelName }
            : undefined
        }
      />

      <Box
        component="ul"
        ref={listRef}
        aria-label={t('chat.list')}
        aria-live="polite"
        aria-relevant="additions"
        sx={{
          flex: 1,
          minHeight: 0,
          overflowY: 'auto',
          m: 0,
          px: 2,
          py: 1.5,
          display: 'flex',
          flexDirection: 'column',
          gap: 1.5,
        }}
      >
        {chat.hasMore ? (
          <Box component="li" sx={{ listStyle: 'none', textAlign: 'center' }}>
            <Button size="small" onClick={() => void chat.loadEarlier()} disabled={chat.loadingEarlier}>
              {t('chat.loadEarlier')}
            </Button>
          </Box>
        ) : null}
        {chat.isLoading ? (
          <Box component="li" sx={{ listStyle: 'none', display: 'grid', placeItems: 'center', py: 4 }}>
            <CircularProgress size={28} aria-label={t('chat.loading')} />
          </Box>
        ) : null}
        {chat.error ? (
          <Box component="li" sx={{ listStyle: 'none' }}>
            <Alert severity="error">{errorMessage(chat.error, t('chat.loadFailed'))}</Alert>
          </Box>
        ) : null}
        {!chat.isLoading && !chat.error && timeline.length === 0 ? (
          <Box component="li" sx={{ listStyle: 'none', textAlign: 'center', color: 'text.secondary', py: 4 }}>
            <Typography variant="body2">{t('chat.empty')}</Typography>
          </Box>
        ) : null}
        {timeline.map(({ message, item }) =>
          message ? (
            <MessageItem
              key={message.id}
              message={message}
              own={message.userId !== null && message.userId === userId}
              onDelete={
                chat.canModerate || (message.userId !== null && message.userId === userId)
                  ? () => void remove(message)
                  : undefined
              }
            />
          ) : (
            <VoiceItem
              key={`voice-${item.id}`}
              item={item}
              own={item.userId !== null && item.userId === userId}
              playing={voice.playing === item.id}
              onPlay={() => voice.play(item)}
              onStop={voice.stop}
              onDelete={chat.canExport ? () => void removeVoice(item.id) : undefined}
            />
          ),
        )}
      </Box>

      {scroll.unseen ? (
        <Box sx={{ position: 'relative', height: 0 }}>
          <Button
            variant="contained"
            size="small"
            onClick={scroll.scrollToNewest}
            startIcon={<ArrowDownwardIcon />}
            sx={{ position: 'absolute', bottom: 8, left: '50%', transform: 'translateX(-50%)', borderRadius: 99 }}
          >
            {t('chat.newMessages')}
          </Button>
        </Box>
      ) : null}
      <Typography
        variant="caption"
        role="status"
        sx={{ px: 2, minHeight: 20, color: 'text.secondary', fontStyle: 'italic' }}
        data-testid="typing-indicator"
      >
        {typingText}
      </Typography>

      <Box
        component="form"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
        sx={{
          display: 'flex',
          alignItems: 'flex-end',
          gap: 0.5,
          px: 1,
          py: 1,
          borderTop: '1px solid',
          borderColor: 'divider',
          bgcolor: 'background.paper',
        }}
      >
        <Tooltip title={t('chat.attach')}>
          <IconButton onClick={() => setUploadOpen(true)} aria-label={t('chat.attach')}>
            <AttachFileIcon />
          </IconButton>
        </Tooltip>
        <TextField
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            if (event.target.value.trim()) chat.typing();
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              void send();
            }
          }}
          placeholder={t('chat.placeholder')}
          size="small"
          multiline
          maxRows={4}
          slotProps={{ htmlInput: { 'aria-label': t('chat.input'), maxLength: 4000 } }}
        />
        <Tooltip title={t('chat.send')}>
          <span>
            <IconButton type="submit" color="primary" disabled={!text.trim() || sending} aria-label={t('chat.send')}>
              <SendIcon />
            </IconButton>
          </span>
        </Tooltip>
      </Box>

      <UploadDialog open={uploadOpen} onClose={() => setUploadOpen(false)} onSend={chat.sendImage} />
    </Box>
  );
}
