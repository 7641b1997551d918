/**
 * "Raccrocher" beside a gateway's call, for who holds channel.gateways in the channel shown (an administrator, a
 * dispatcher of its own channels: issue 58; the room and the console's tiles show only one's channels, so a
 * member's standing is assumed): ends the call with a SIP BYE (hangUpGatewayCall, audited). The call then leaves the channel's participants as a member who leaves does;
 * a refusal (the call had ended already: 404) is said with the server's sentence. Nothing for the others.
 */
import CallEndIcon from '@mui/icons-material/CallEnd';
import Button from '@mui/material/Button';
import { HangUpGatewayCall, ListGatewayCalls, ListGateways, may } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { callKey, useApiMutation } from '../../api/queries.ts';
import { useSession } from '../../api/session.ts';
import { useNotify } from '../../components/Notifier.tsx';

export function HangUpGatewayButton({
  callId,
  name,
  size = 'small',
}: {
  callId: string;
  /** The gateway's name, in the button's accessible name ("Raccrocher Radio Quai"). */
  name: string;
  size?: 'small' | 'medium';
}) {
  const { t } = useTranslation(['room', 'common']);
  const role = useSession()?.user?.role ?? 'member';
  const notify = useNotify();
  const client = useQueryClient();
  const hangUp = useApiMutation(HangUpGatewayCall, {
    onSuccess: () => {
      notify({ severity: 'success', message: t('common:server.gateway_hung_up') });
      void client.invalidateQueries({ queryKey: callKey(ListGatewayCalls) });
      void client.invalidateQueries({ queryKey: callKey(ListGateways) });
    },
    onError: (error) => notify({ severity: 'error', message: errorMessage(error, t('room:gateway.hangUpFailed')) }),
  });
  if (!may({ role }, { member: true }, 'channel.gateways')) return null;
  return (
    <Button
      size={size}
      color="error"
      variant="outlined"
      startIcon={<CallEndIcon />}
      aria-label={t('room:gateway.hangUpNamed', { name })}
      disabled={hangUp.isPending}
      onClick={() => hangUp.mutate({ callId })}
    >
      {t('room:gateway.hangUp')}
    </Button>
  );
}
