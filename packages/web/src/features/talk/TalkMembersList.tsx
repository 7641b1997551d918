/**
 * The channel's members on a phone: each one's state, talking first, then in the channel, online, away; and its
 * status with its age ("Sur place · 12 min", issue 49), live.
 */
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import { useTranslation } from 'react-i18next';
import { useAliasLabels } from '../../api/aliases.ts';
import { useMemberStatuses } from '../../api/statuses.ts';
import { AliasTag } from '../../components/AliasTag.tsx';
import { StatusChip } from '../../components/StatusChip.tsx';
import { PrivateCallButton } from '../../engines/calls/index.ts';
import { type ChannelMember, memberName } from '../../engines/room/index.ts';
import type { PeerState } from '../../engines/voice/index.ts';

type MemberState = 'talking' | 'inChannel' | 'online' | 'offline';

const ORDER: Record<MemberState, number> = { talking: 0, inChannel: 1, online: 2, offline: 3 };
const COLOUR: Record<MemberState, string> = {
  talking: '#c0392b',
  inChannel: '#1e7d3a',
  online: '#b45309',
  offline: '#8a99a6',
};

export function TalkMembersList({
  members,
  peers,
  isLoading,
  selfId,
  selfTalking,
}: {
  members: ChannelMember[];
  peers: PeerState[];
  isLoading: boolean;
  selfId: number | undefined;
  selfTalking: boolean;
}) {
  const { t } = useTranslation('talk');
  const statuses = useMemberStatuses();
  const aliases = useAliasLabels();
  if (isLoading) {
    return (
      <Box sx={{ p: 2 }} aria-busy="true">
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} height={56} />
        ))}
      </Box>
    );
  }
  const talking = new Set(peers.filter((peer) => peer.talking).map((peer) => peer.userId));
  const rows = members
    .map((member) => {
      const state: MemberState = (member.user.id === selfId ? selfTalking : talking.has(member.user.id))
        ? 'talking'
        : member.inChannel
          ? 'inChannel'
          : member.online
            ? 'online'
            : 'offline';
      return { member, state, name: memberName(member.user) };
    })
    .sort((a, b) => ORDER[a.state] - ORDER[b.state] || a.name.localeCompare(b.name));

  return (
    <List aria-label={t('members.title')} sx={{ px: 1 }}>
      {rows.map(({ member, state, name }) => {
        const entry = statuses.get(member.user.id);
        return (
          <ListItem
            key={member.user.id}
            aria-label={name}
            data-state={state}
            divider
            sx={{ minHeight: 56 }}
            secondaryAction={
              // A member calls its channel's dispatchers and administrators (or anyone, where allowed): issue 27.
              <PrivateCallButton user={{ id: member.user.id, name, role: member.user.role }} shared />
            }
          >
            <Box
              aria-hidden
              sx={{ width: 14, height: 14, borderRadius: '50%', bgcolor: COLOUR[state], mr: 1.5, flexShrink: 0 }}
            />
            <ListItemText
              primary={member.user.id === selfId ? t('members.you', { name }) : name}
              secondary={
                <>
                  {t(`members.state.${state}`)}
                  {aliases.has(member.user.id) ? (
                    <Box component="span" sx={{ display: 'flex', mt: 0.5 }}>
                      <AliasTag alias={aliases.get(member.user.id)} />
                    </Box>
                  ) : null}
                  {entry ? (
                    <Box component="span" sx={{ display: 'flex', mt: 0.5 }}>
                      <StatusChip status={entry.status} since={entry.since} setBy={entry.setBy} />
                    </Box>
                  ) : null}
                </>
              }
              slotProps={{ primary: { sx: { fontWeight: 600 } }, secondary: { component: 'div' } }}
            />
          </ListItem>
        );
      })}
    </List>
  );
}
