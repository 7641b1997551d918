/**
 * How the room's voice travels (through the media server, or peer to peer) and, when it cannot flow, why in
 * plain words: the media server does not answer, this network blocks the link and no relay carried it, or
 * the channel went peer to peer while the media server is down. Everything comes back by itself.
 */
import DnsIcon from '@mui/icons-material/Dns';
import HubIcon from '@mui/icons-material/Hub';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Chip from '@mui/material/Chip';
import { useTranslation } from 'react-i18next';
import type { LinkProblem, VoiceTransport } from './voiceTransport.ts';

export function VoiceLinkStatus({
  transport,
  problem,
  showTransport = true,
}: {
  transport: VoiceTransport['kind'];
  problem: LinkProblem | null;
  /** The way the voice travels, as a small label (off where the page has no room for it). */
  showTransport?: boolean;
}) {
  const { t } = useTranslation('room');
  return (
    <>
      {showTransport ? (
        <Chip
          size="small"
          variant="outlined"
          icon={transport === 'server' ? <DnsIcon /> : <HubIcon />}
          label={t(`voiceLink.${transport}`)}
          title={t(`voiceLink.${transport}Hint`)}
          data-testid="voice-transport"
        />
      ) : null}
      {problem ? (
        <Alert severity={problem === 'serverDown' ? 'info' : 'warning'} role="alert" sx={{ textAlign: 'left' }}>
          <AlertTitle>{problem === 'serverDown' ? t('voiceLink.serverDownTitle') : t('voiceLink.title')}</AlertTitle>
          {t(`voiceLink.${problem}`)}
        </Alert>
      ) : null}
    </>
  );
}
