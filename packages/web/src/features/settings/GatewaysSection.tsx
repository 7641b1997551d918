/**
 * /settings, "Passerelles" (issue 51), for who holds gateways.manage: the SIP gateways (radios over IP, desk
 * phones) with their login, the channels they may dial (by number), how they take the floor and their calls now.
 * "Ajouter une passerelle" opens GatewayDialog; its secret is shown once (GatewaySecretDialog), as after
 * "Nouveau secret" (confirmed first: the old secret stops working at once). A deletion is confirmed and hangs up
 * its calls. Each call now has "Raccrocher". Refusals are said with the server's sentence.
 */
import AddIcon from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { type Gateway, type GatewayCall, gatewayCallLimit } from '@talkgroup/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { useConfirm } from '../../components/ConfirmProvider.tsx';
import { useNotify } from '../../components/Notifier.tsx';
import { GatewayMark, HangUpGatewayButton } from '../../engines/gateways/index.ts';
import { formatDate } from '../../i18n/dates.ts';
import { useDeleteGateway, useGatewayCalls, useGateways, useResetGatewaySecret } from './api/gateways.ts';
import { type DialableChannel, GatewayDialog, useDialableChannels } from './GatewayDialog.tsx';
import { GatewaySecretDialog } from './GatewaySecretDialog.tsx';
import { ListEditor } from './ListEditor.tsx';

function GatewayItem({
  gateway,
  calls,
  channels,
  onEdit,
  onSecret,
}: {
  gateway: Gateway;
  calls: GatewayCall[];
  channels: DialableChannel[];
  onEdit: (gateway: Gateway) => void;
  onSecret: (gateway: Gateway, secret: string) => void;
}) {
  const { t } = useTranslation(['settings', 'common']);
  const confirm = useConfirm();
  const notify = useNotify();
  const reset = useResetGatewaySecret();
  const remove = useDeleteGateway();
  const { name } = gateway;
  const own = channels.filter((channel) => gateway.channelIds.includes(channel.id));

  const resetSecret = async () => {
    const sure = await confirm({
      title: t('settings:gateways.resetTitle', { name }),
      message: t('settings:gateways.resetMessage'),
      confirmLabel: t('settings:gateways.reset'),
      destructive: true,
    });
    if (!sure) return;
    try {
      const answer = await reset.mutateAsync({ id: gateway.id });
      onSecret(gateway, answer.secret);
    } catch (error) {
      notify({ severity: 'error', message: errorMessage(error, t('settings:gateways.resetFailed')) });
    }
  };
  const deleteGateway = async () => {
    const sure = await confirm({
      title: t('settings:gateways.deleteTitle', { name }),
      message: t('settings:gateways.deleteMessage'),
      confirmLabel: t('settings:gateways.delete'),
      destructive: true,
    });
    if (!sure) return;
    try {
      await remove.mutateAsync({ id: gateway.id });
      notify({ severity: 'success', message: t('common:server.gateway_deleted') });
    } catch (error) {
      notify({ severity: 'error', message: errorMessage(error, t('settings:gateways.deleteFailed')) });
    }
  };

  return (
    <Box
      component="li"
      aria-label={name}
      sx={{ p: 1.5, border: '1px solid', borderColor: 'divider', borderRadius: 1, display: 'grid', gap: 1 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <GatewayMark />
        <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 650, overflowWrap: 'anywhere', mr: 'auto' }}>
          {name}
        </Typography>
        <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}>
          <Button size="small" aria-label={t('settings:gateways.editNamed', { name })} onClick={() => onEdit(gateway)}>
            {t('settings:gateways.edit')}
          </Button>
          <Button
            size="small"
            aria-label={t('settings:gateways.resetNamed', { name })}
            disabled={reset.isPending}
            onClick={() => void resetSecret()}
          >
            {t('settings:gateways.reset')}
          </Button>
          <Button
            size="small"
            color="error"
            aria-label={t('settings:gateways.deleteNamed', { name })}
            disabled={remove.isPending}
            onClick={() => void deleteGateway()}
          >
            {t('settings:gateways.delete')}
          </Button>
        </Box>
      </Box>
      <Box
        component="dl"
        sx={{
          m: 0,
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: 'max-content minmax(0, 1fr)' },
          columnGap: 2,
          rowGap: 0.25,
          typography: 'body2',
          '& dt': { color: 'text.secondary' },
          '& dd': { m: 0, overflowWrap: 'anywhere', mb: { xs: 0.75, sm: 0 } },
        }}
      >
        <dt>{t('settings:gateways.fields.login')}</dt>
        <dd>{gateway.login}</dd>
        <dt>{t('settings:gateways.fields.channels')}</dt>
        <dd>
          {own.length > 0
            ? own
                .map((channel) => t('settings:gateways.channelOption', { number: channel.number, name: channel.name }))
                .join(', ')
            : t('settings:gateways.noChannels')}
        </dd>
        <dt>{t('settings:gateways.fields.floorMode')}</dt>
        <dd>
          {gateway.floorMode === 'voice'
            ? t('settings:gateways.voiceSummary', { attack: gateway.attackMs, hang: gateway.hangMs })
            : t('settings:gateways.floorModes.dtmf')}
        </dd>
        <dt>{t('settings:gateways.fields.simultaneousCalls')}</dt>
        <dd>
          {gateway.simultaneousCalls ??
            t('settings:gateways.simultaneousDefault', { count: gatewayCallLimit(gateway) })}
        </dd>
        <dt>{t('settings:gateways.callsNow')}</dt>
        <dd>{calls.length > 0 ? calls.length : gateway.calls}</dd>
      </Box>
      {calls.length > 0 ? (
        <Box
          component="ul"
          aria-label={t('settings:gateways.callsOf', { name })}
          sx={{ listStyle: 'none', m: 0, p: 0 }}
        >
          {calls.map((call) => (
            <Box
              component="li"
              key={call.callId}
              sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', py: 0.5 }}
            >
              <Typography variant="body2" sx={{ flex: '1 1 220px', minWidth: 0, overflowWrap: 'anywhere' }}>
                {t('settings:gateways.call', {
                  channel: call.channelName,
                  address: call.address,
                  transport: call.transport.toUpperCase(),
                  codec: call.codec,
                  since: formatDate(call.since, 'HH:mm'),
                })}
              </Typography>
              {call.talking ? <Chip size="small" color="success" label={t('settings:gateways.talking')} /> : null}
              <HangUpGatewayButton
                callId={call.callId}
                name={t('settings:gateways.callName', { name, channel: call.channelName })}
              />
            </Box>
          ))}
        </Box>
      ) : null}
    </Box>
  );
}

export function GatewaysSection() {
  const { t } = useTranslation(['settings', 'common']);
  const gateways = useGateways(true);
  const calls = useGatewayCalls(true);
  const channels = useDialableChannels();
  const [editing, setEditing] = useState<Gateway | null | undefined>(undefined);
  const [secret, setSecret] = useState<{ gateway: Gateway; secret: string } | null>(null);

  return (
    <ListEditor
      id="settings-gateways"
      title={t('settings:gateways.title')}
      help={t('settings:gateways.help')}
      loadError={gateways.error}
      loadFailed={t('settings:gateways.loadFailed')}
      rows={gateways.data?.res}
      rowKey={(gateway) => gateway.id}
      listLabel={t('settings:gateways.title')}
      renderRow={(gateway) => (
        <GatewayItem
          gateway={gateway}
          calls={(calls.data?.res ?? []).filter((call) => call.gatewayId === gateway.id)}
          channels={channels}
          onEdit={setEditing}
          onSecret={(shown, value) => setSecret({ gateway: shown, secret: value })}
        />
      )}
      empty={t('settings:gateways.empty')}
      adder={
        <Button startIcon={<AddIcon />} sx={{ mt: 2 }} disabled={!gateways.data} onClick={() => setEditing(null)}>
          {t('settings:gateways.add')}
        </Button>
      }
    >
      <GatewayDialog
        open={editing !== undefined}
        gateway={editing ?? null}
        onClose={() => setEditing(undefined)}
        onCreated={(gateway, value) => {
          setEditing(undefined);
          setSecret({ gateway, secret: value });
        }}
      />
      <GatewaySecretDialog shown={secret} channels={channels} onClose={() => setSecret(null)} />
    </ListEditor>
  );
}
