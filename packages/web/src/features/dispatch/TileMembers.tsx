/**
 * A tile's people (issue 49): the channel's members, those in the channel first, then those connected elsewhere,
 * then the others, each with its status and its age ("Sur place · 12 min") and "Statut de {name}" to set it. The
 * list is the channel's getUsersInChannel (the page reads it again when presence changes); the statuses are live.
 * Issue 60: each member's device status ("État du terminal"), flagged when its battery runs low or its app is closed,
 * and "Déclencher un SOS pour {name}" (RaiseSosButton).
 * Issue 70: a lone worker's state beside its name, live; the row's actions in its "Actions" menu, each named.
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { GetUsersInChannel } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { useAliasLabels } from '../../api/aliases.ts';
import { useApiQuery } from '../../api/queries.ts';
import type { MemberStatusEntry } from '../../api/statuses.ts';
import { AliasTag } from '../../components/AliasTag.tsx';
import { RowActionsMenu } from '../../components/RowActions.tsx';
import { StatusChip } from '../../components/StatusChip.tsx';
import { AssignAliasButton } from '../../engines/aliases/index.ts';
import { GatewayMark, HangUpGatewayButton } from '../../engines/gateways/index.ts';
import { MemberStatusButton } from '../../engines/statuses/index.ts';
import { RequestVideoButton } from '../../engines/video/index.ts';
import type { PeerState } from '../../engines/voice/index.ts';
import { DeviceStatusButton } from './device/DeviceStatusButton.tsx';
import { LoneWorkChip } from './lone/LoneWorkersPanel.tsx';
import { useLoneWorkers } from './lone/useLoneWorkers.ts';
import { RaiseSosButton } from './RaiseSosButton.tsx';
import { SwitchChannelButton } from './regroup/SwitchChannelButton.tsx';
import { type Presence, tileMembers } from './tileMembers.ts';

const PRESENCE_COLOUR: Record<Presence, string> = { inChannel: '#1e7d3a', online: '#b45309', offline: '#8a99a6' };

export function TileMembers({
  channel,
  statuses,
  gateways,
}: {
  channel: { id: number; name: string };
  statuses: ReadonlyMap<number, MemberStatusEntry>;
  /** The gateways' calls among the tile's voice room's peers. */
  gateways: PeerState[];
}) {
  const { t } = useTranslation(['dispatch', 'room']);
  const users = useApiQuery(GetUsersInChannel, { channelId: channel.id });
  const members = tileMembers(users.data?.res ?? [], channel.id);
  const aliases = useAliasLabels();
  const loneWork = useLoneWorkers().byUser;
  const title = t('dispatch:tile.members', { channel: channel.name });
  if (users.isPending) return null;
  if (members.length === 0 && gateways.length === 0)
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('dispatch:tile.noMembers')}
      </Typography>
    );
  return (
    <Box
      component="ul"
      aria-label={title}
      sx={{
        listStyle: 'none',
        m: 0,
        p: 0,
        maxHeight: 172,
        overflowY: 'auto',
        borderTop: '1px solid',
        borderBottom: '1px solid',
        borderColor: 'divider',
      }}
    >
      {gateways.map((peer) =>
        peer.gateway ? (
          <Box
            component="li"
            key={peer.id}
            data-presence="inChannel"
            sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 0.75, minHeight: 34, py: 0.25 }}
          >
            <GatewayMark />
            <Typography
              variant="body2"
              noWrap
              title={peer.name}
              sx={{ flex: '1 1 auto', minWidth: 0, maxWidth: 'calc(100% - 24px)', fontWeight: 600 }}
            >
              {peer.name}
            </Typography>
            <Box sx={{ ml: 'auto' }}>
              <HangUpGatewayButton callId={peer.gateway.callId} name={peer.name} />
            </Box>
          </Box>
        ) : null,
      )}
      {members.map((member) => {
        const entry = statuses.get(member.id);
        const worker = loneWork.get(member.id);
        const presence = t(`room:members.${member.presence}`);
        return (
          <Box
            component="li"
            key={member.id}
            data-presence={member.presence}
            // A long name sends the status to a line of its own rather than cutting either.
            sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 0.75, minHeight: 34, py: 0.25 }}
          >
            <Box
              component="span"
              role="img"
              aria-label={presence}
              title={presence}
              sx={{
                width: 9,
                height: 9,
                borderRadius: '50%',
                flexShrink: 0,
                bgcolor: PRESENCE_COLOUR[member.presence],
              }}
            />
            <Typography
              variant="body2"
              noWrap
              title={member.name}
              sx={{
                flex: '1 1 auto',
                minWidth: 0,
                maxWidth: 'calc(100% - 20px)',
                fontWeight: member.presence === 'inChannel' ? 600 : 400,
                color: member.presence === 'offline' ? 'text.secondary' : 'text.primary',
              }}
            >
              {member.name}
            </Typography>
            <AliasTag alias={aliases.get(member.id)} />
            <Box sx={{ ml: 'auto', display: 'flex', alignItems: 'center', gap: 0.5, maxWidth: '100%' }}>
              {worker ? <LoneWorkChip worker={worker} withTitle /> : null}
              {entry ? <StatusChip status={entry.status} since={entry.since} setBy={entry.setBy} /> : null}
              <RowActionsMenu
                label={t('dispatch:tile.actions', { name: member.name })}
                text={t('dispatch:tile.actionsShort')}
              >
                <MemberStatusButton user={{ id: member.id, name: member.name }} statusId={entry?.status.id ?? null} />
                <AssignAliasButton user={{ id: member.id, name: member.name }} />
                <SwitchChannelButton user={{ id: member.id, name: member.name }} channel={channel} />
                <DeviceStatusButton
                  user={{ id: member.id, name: member.name }}
                  online={member.presence !== 'offline'}
                />
                <RequestVideoButton
                  user={{ id: member.id, name: member.name }}
                  channelId={channel.id}
                  disabled={member.presence === 'offline'}
                />
                <RaiseSosButton user={{ id: member.id, name: member.name }} channelId={channel.id} />
              </RowActionsMenu>
            </Box>
          </Box>
        );
      })}
    </Box>
  );
}
