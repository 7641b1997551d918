/**
 * The image upload dialog (spec sections 2 and 5): one file, dropped or chosen; jpeg, png, bmp, gif or
 * webp; at most 1 MB. A wrong type says 'fichier invalid'; too large an image says the 1 MB limit for 3 s
 * (the spec's "10 MB" text contradicts its own limit: see docs/spec-deviations.md); more than one file
 * says 'Please enter a valid image file.'.
 */
import CloudUploadIcon from '@mui/icons-material/CloudUploadOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { IMAGE_MAX_BYTES, IMAGE_MAX_LABEL, IMAGE_MIME_TYPES } from '@talkgroup/protocol';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/client.ts';

const TOO_LARGE_NOTICE_MS = 3000;

type Problem = 'type' | 'size' | 'count' | null;

export function checkImage(file: File): Problem {
  if (!(IMAGE_MIME_TYPES as readonly string[]).includes(file.type)) return 'type';
  if (file.size > IMAGE_MAX_BYTES) return 'size';
  return null;
}

export interface UploadDialogProps {
  open: boolean;
  onClose: () => void;
  onSend: (file: File, caption: string) => Promise<void>;
}

export function UploadDialog({ open, onClose, onSend }: UploadDialogProps) {
  const { t } = useTranslation('room');
  const titleId = useId();
  const inputRef = useRef<HTMLInputElement | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [caption, setCaption] = useState('');
  const [problem, setProblem] = useState<Problem>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  // The too-large message shows for 3 s (spec section 5).
  useEffect(() => {
    if (problem !== 'size') return;
    const timer = setTimeout(() => setProblem((current) => (current === 'size' ? null : current)), TOO_LARGE_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [problem]);

  useEffect(() => {
    if (open) return;
    setFile(null);
    setCaption('');
    setProblem(null);
    setServerError(null);
    setDragging(false);
  }, [open]);

  const choose = (files: FileList | File[] | null) => {
    const list = files ? [...files] : [];
    setServerError(null);
    if (list.length === 0) return;
    if (list.length > 1) {
      setProblem('count');
      return;
    }
    const found = checkImage(list[0]);
    setProblem(found);
    setFile(found ? null : list[0]);
  };

  const send = async () => {
    if (!file) return;
    setSending(true);
    setServerError(null);
    try {
      await onSend(file, caption);
      onClose();
    } catch (error) {
      setServerError(errorMessage(error, t('chat.uploadFailed')));
    } finally {
      setSending(false);
    }
  };

  const problemText =
    problem === 'type'
      ? t('upload.invalidType')
      : problem === 'size'
        ? t('upload.tooLarge', { limit: IMAGE_MAX_LABEL })
        : problem === 'count'
          ? t('upload.rejected')
          : null;

  return (
    <Dialog open={open} onClose={sending ? undefined : onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{t('upload.title')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <Box
          data-testid="drop-zone"
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            event.preventDefault();
            setDragging(false);
            choose(event.dataTransfer.files);
          }}
          sx={{
            border: '2px dashed',
            borderColor: dragging ? 'primary.main' : problem ? 'error.main' : 'divider',
            bgcolor: dragging ? 'rgba(11,107,107,0.06)' : 'background.default',
            borderRadius: 3,
            p: 3,
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            gap: 1.5,
            textAlign: 'center',
            minHeight: 180,
            justifyContent: 'center',
          }}
        >
          {preview && file ? (
            <>
              <Box
                component="img"
                src={preview}
                alt={file.name}
                sx={{ maxWidth: '100%', maxHeight: 220, borderRadius: 2, objectFit: 'contain' }}
              />
              <Typography variant="body2" sx={{ color: 'text.secondary', wordBreak: 'break-all' }}>
                {file.name}
              </Typography>
            </>
          ) : (
            <>
              <CloudUploadIcon sx={{ fontSize: 44, color: 'primary.main' }} aria-hidden />
              <Typography sx={{ fontWeight: 600 }}>{t('upload.drop')}</Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {t('upload.rules', { limit: IMAGE_MAX_LABEL })}
              </Typography>
            </>
          )}
          <Button variant="outlined" onClick={() => inputRef.current?.click()} disabled={sending}>
            {file ? t('upload.chooseAnother') : t('upload.choose')}
          </Button>
          <input
            ref={inputRef}
            type="file"
            accept={IMAGE_MIME_TYPES.join(',')}
            hidden
            aria-label={t('upload.fileInput')}
            onChange={(event) => {
              choose(event.target.files);
              event.target.value = '';
            }}
          />
        </Box>
        {problemText ? (
          <Alert severity="error" role="alert">
            {problemText}
          </Alert>
        ) : null}
        {serverError ? (
          <Alert severity="error" role="alert">
            {serverError}
          </Alert>
        ) : null}
        <TextField
          label={t('upload.caption')}
          value={caption}
          onChange={(event) => setCaption(event.target.value)}
          size="small"
          disabled={sending}
        />
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5, gap: 1 }}>
        <Button onClick={onClose} disabled={sending} color="inherit" variant="outlined">
          {t('upload.cancel')}
        </Button>
        <Button
          onClick={send}
          disabled={!file || sending}
          variant="contained"
          startIcon={sending ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
        >
          {t('upload.send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
