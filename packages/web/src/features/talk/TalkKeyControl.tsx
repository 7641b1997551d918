/**
 * "Talk key" on a channel page (issue 34): the key's name when one is set, and a dialog that asks the member to
 * press the key to use (Escape cancels), to forget it, or to pair a Bluetooth PTT button where the browser can.
 * A press refused because the page was in the background is said here, in a sentence.
 */
import KeyboardIcon from '@mui/icons-material/KeyboardOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { useTalkKey } from './useTalkKey.ts';

export function TalkKeyControl({ talkKey }: { talkKey: ReturnType<typeof useTalkKey> }) {
  const { t } = useTranslation('talk');
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const { key, learning, bluetooth } = talkKey;
  const close = () => {
    talkKey.stopLearning();
    setOpen(false);
  };
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      {talkKey.refusal === 'hidden' ? (
        <Alert severity="warning" onClose={talkKey.dismissRefusal}>
          {t('talkKey.refusedHidden')}
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Button variant="outlined" startIcon={<KeyboardIcon />} onClick={() => setOpen(true)} sx={{ minHeight: 44 }}>
          {t('talkKey.button')}
        </Button>
        <Typography variant="body2" role="status" sx={{ color: 'text.secondary' }}>
          {key ? t('talkKey.current', { name: key.name }) : t('talkKey.none')}
          {bluetooth.button ? ` · ${t('talkKey.bluetoothPaired', { name: bluetooth.button.name })}` : ''}
        </Typography>
      </Box>
      <Dialog open={open} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="xs">
        <DialogTitle id={titleId}>{t('talkKey.button')}</DialogTitle>
        <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
          <Typography role="status" aria-live="polite">
            {learning ? t('talkKey.pressNow') : key ? t('talkKey.current', { name: key.name }) : t('talkKey.none')}
          </Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('talkKey.explain')}
          </Typography>
          {bluetooth.supported ? (
            <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
              <Button variant="outlined" onClick={() => void bluetooth.pair()}>
                {t('talkKey.pairBluetooth')}
              </Button>
              {bluetooth.button ? (
                <Typography variant="body2">{t('talkKey.bluetoothPaired', { name: bluetooth.button.name })}</Typography>
              ) : null}
              {bluetooth.pairingFailed ? <Alert severity="error">{t('talkKey.bluetoothFailed')}</Alert> : null}
            </Box>
          ) : null}
        </DialogContent>
        <DialogActions>
          {key && !learning ? <Button onClick={talkKey.forget}>{t('talkKey.forget')}</Button> : null}
          {learning ? (
            <Button onClick={talkKey.stopLearning}>{t('talkKey.cancel')}</Button>
          ) : (
            <Button onClick={talkKey.startLearning}>{key ? t('talkKey.change') : t('talkKey.choose')}</Button>
          )}
          <Button variant="contained" onClick={close}>
            {t('talkKey.close')}
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}
