/**
 * The messaging panel of a room (spec sections 2, 4 and 5): the history and live messages, own messages
 * labelled 'Me', the time as 'd MMM, HH:mm' in the reader's language, a delete icon on the messages the
 * reader may delete (its own; any for an administrator; 'Are you sure?' first), a download icon on images, a text field with a send button (blank is not sent),
 * a paperclip opening the image upload dialog, and who is typing.
 * Every text is rendered as text: markup in a message shows as characters.
 */
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CloseIcon from '@mui/icons-material/Close';
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
import { type RefObject, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/client.ts';
import { useConfirm } from '../../../components/ConfirmProvider.tsx';
import { useNotify } from '../../../components/Notifier.tsx';
import { MessageItem } from './MessageItem.tsx';
import { UploadDialog } from './UploadDialog.tsx';
import type { useChat } from './useChat.ts';
import { useChatScroll } from './useChatScroll.ts';
import { VoiceBar } from './VoiceBar.tsx';
import { VoiceItem } from './VoiceItem.tsx';

type Chat = ReturnType<typeof useChat>;

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
  const listRef = useRef<HTMLUListElement | null>(null);
  const lastId = `${chat.messages[chat.messages.length - 1]?.id}:${chat.voice.items.length}`;
  // New messages scroll into view unless the reader scrolled up to read older ones (then a button says so).
  const scroll = useChatScroll(listRef, lastId, !chat.isLoading);

  return (
    <Box
      component="section"
      aria-label={t('chat.title')}
      sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, bgcolor: '#f7f9fb' }}
    >
      {showHeader ? <ChatHeader channelName={channelName} onClose={onClose} /> : null}
      <VoiceBar
        voice={chat.voice}
        recording={chat.recording}
        exportChannel={
          chat.canExport && chat.channelId !== undefined
            ? { id: chat.channelId, name: channelName, rtcSession: chat.room ?? channelName }
            : undefined
        }
        videosChannel={chat.channelId !== undefined ? { id: chat.channelId, name: channelName } : undefined}
      />
      <ChatTimeline chat={chat} userId={userId} listRef={listRef} />
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
      <TypingLine typers={chat.typers} />
      <ChatComposer chat={chat} onSend={scroll.stick} />
    </Box>
  );
}

function ChatHeader({ channelName, onClose }: { channelName: string; onClose?: () => void }) {
  const { t } = useTranslation('room');
  return (
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
  );
}

/** Deleting a message or a recorded transmission, after 'Are you sure?'. */
function useChatDeletion(chat: Chat) {
  const { t } = useTranslation('room');
  const confirm = useConfirm();
  const notify = useNotify();
  const confirmed = () =>
    confirm({ title: t('chat.confirmDelete'), destructive: true, confirmLabel: t('chat.delete') });
  // Spec section 8: 'Oops...', 'Something went wrong!', 'Please try again'.
  const failed = () =>
    notify({ severity: 'error', title: t('chat.oops'), message: `${t('chat.wrong')} ${t('chat.tryAgain')}` });
  return {
    removeMessage: async (message: Message) => {
      if (!(await confirmed())) return;
      try {
        await chat.deleteMessage(message.id);
      } catch {
        failed();
      }
    },
    removeVoice: async (id: number) => {
      if (!(await confirmed())) return;
      try {
        await chat.voice.remove(id);
      } catch {
        failed();
      }
    },
  };
}

/** The messages and the recorded transmissions, oldest first, with 'Load earlier', loading, error and empty. */
function ChatTimeline({
  chat,
  userId,
  listRef,
}: {
  chat: Chat;
  userId: number | undefined;
  listRef: RefObject<HTMLUListElement | null>;
}) {
  const { t } = useTranslation('room');
  const { voice } = chat;
  const { removeMessage, removeVoice } = useChatDeletion(chat);
  const timeline = [
    ...chat.messages.map((message) => ({ at: Date.parse(message.createdAt), message, item: undefined })),
    ...voice.items.map((item) => ({ at: Date.parse(item.createdAt), message: undefined, item })),
  ].sort((a, b) => a.at - b.at);
  return (
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
                ? () => void removeMessage(message)
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
  );
}

function TypingLine({ typers }: { typers: Chat['typers'] }) {
  const { t } = useTranslation('room');
  const typingText =
    typers.length === 0
      ? ''
      : typers.length === 1
        ? t('chat.typingOne', { name: typers[0].name })
        : t('chat.typingMany', { names: typers.map((typer) => typer.name).join(', ') });
  return (
    <Typography
      variant="caption"
      role="status"
      sx={{ px: 2, minHeight: 20, color: 'text.secondary', fontStyle: 'italic' }}
      data-testid="typing-indicator"
    >
      {typingText}
    </Typography>
  );
}

/** The paperclip (its upload dialog), the text field (Enter sends, Shift+Enter breaks the line) and Send. */
function ChatComposer({ chat, onSend }: { chat: Chat; onSend: () => void }) {
  const { t } = useTranslation('room');
  const notify = useNotify();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [uploadOpen, setUploadOpen] = useState(false);

  const send = async () => {
    if (!text.trim() || sending) return;
    setSending(true);
    try {
      onSend();
      if (await chat.send(text)) setText('');
    } catch (error) {
      notify({ severity: 'error', title: t('chat.sendFailed'), message: errorMessage(error, t('chat.tryAgain')) });
    } finally {
      setSending(false);
    }
  };

  return (
    <>
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
    </>
  );
}
