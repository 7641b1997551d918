/**
 * A gateway's secret, shown once (issue 51): after its creation and after "Nouveau secret". Beside it, what to
 * program into the gateway: its login, the secret, and the SIP address to dial for each of its channels
 * (`sip:{number}@{host}`). The server keeps only the secret's digest hash: once this dialog closes, it is gone.
 */
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Gateway } from '@talkgroup/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClientConfig } from '../../api/useClientConfig.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import type { DialableChannel } from './GatewayDialog.tsx';
import { sipAddress } from './gatewayForm.ts';

/**
 * Where a gateway dials: the server's SIP address and port (SIP_PUBLIC_ADDRESS, SIP_PORT) from the client
 * configuration; this page's host when the server names none (SIP off, or an older server).
 */
export function useSipHost(): { host: string; port?: number } {
  const sip = useClientConfig().data?.sip;
  return sip ? { host: sip.host, port: sip.port } : { host: window.location.hostname };
}

export function GatewaySecretDialog({
  shown,
  channels,
  onClose,
}: {
  /** The gateway and its new secret; null: closed. */
  shown: { gateway: Gateway; secret: string } | null;
  channels: DialableChannel[];
  onClose: () => void;
}) {
  const { t } = useTranslation(['settings', 'common']);
  const [copied, setCopied] = useState<boolean | null>(null);
  const gateway = shown?.gateway;
  const { host, port } = useSipHost();
  const own = gateway ? channels.filter((channel) => gateway.channelIds.includes(channel.id)) : [];
  const copy = async () => {
    if (!shown) return;
    try {
      await navigator.clipboard.writeText(shown.secret);
      setCopied(true);
    } catch {
      // A page without the clipboard's permission (an insecure origin): the secret stays selectable.
      setCopied(false);
    }
  };
  const close = () => {
    setCopied(null);
    onClose();
  };

  return (
    <FormDialog
      open={shown !== null}
      title={t('settings:gateways.secretTitle', { name: gateway?.name ?? '' })}
      onClose={close}
      maxWidth="sm"
      actions={
        <Button variant="contained" onClick={close}>
          {t('settings:gateways.secretDone')}
        </Button>
      }
    >
      <Stack spacing={2}>
        <Alert severity="warning">{t('settings:gateways.secretOnce')}</Alert>
        <TextField
          label={t('settings:gateways.secret')}
          value={shown?.secret ?? ''}
          slotProps={{
            htmlInput: { readOnly: true, spellCheck: false, sx: { fontFamily: 'monospace', fontSize: '1.05rem' } },
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <Tooltip title={t('settings:gateways.copy')}>
                    <IconButton aria-label={t('settings:gateways.copy')} onClick={() => void copy()} edge="end">
                      <ContentCopyIcon />
                    </IconButton>
                  </Tooltip>
                </InputAdornment>
              ),
            },
          }}
          onFocus={(event) => event.target.select()}
        />
        <Typography role="status" variant="body2" sx={{ minHeight: '1.5em', mt: '4px !important' }}>
          {copied === true ? t('settings:gateways.copied') : copied === false ? t('settings:gateways.copyFailed') : ''}
        </Typography>
        <Box component="section" aria-labelledby="gateway-program">
          <Typography id="gateway-program" variant="subtitle1" component="h3" sx={{ fontWeight: 650, mb: 1 }}>
            {t('settings:gateways.program')}
          </Typography>
          <Box
            component="dl"
            sx={{
              m: 0,
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', sm: 'max-content minmax(0, 1fr)' },
              columnGap: 2,
              rowGap: 0.5,
              '& dt': { color: 'text.secondary' },
              '& dd': { m: 0, fontFamily: 'monospace', overflowWrap: 'anywhere', mb: { xs: 1, sm: 0 } },
            }}
          >
            <dt>{t('settings:gateways.fields.login')}</dt>
            <dd>{gateway?.login}</dd>
            {own.map((channel) => (
              <Box key={channel.id} sx={{ display: 'contents' }}>
                <dt>{t('settings:gateways.dialFor', { channel: channel.name })}</dt>
                <dd>{sipAddress(channel.number, host, port)}</dd>
              </Box>
            ))}
          </Box>
          {own.length === 0 ? (
            <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1 }}>
              {t('settings:gateways.noChannelYet')}
            </Typography>
          ) : null}
          <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1 }}>
            {t('settings:gateways.programHelp')}
          </Typography>
        </Box>
      </Stack>
    </FormDialog>
  );
}
