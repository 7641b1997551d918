/**
 * The sidebar's 'Users in {channel}' section (spec section 2): an expandable list of the channel's members
 * with their presence and status (issue 49: "Sur place · 12 min"), and an icon that opens the Search User dialog to add or remove members.
 */
import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import GroupAddIcon from '@mui/icons-material/GroupAdd';
import Box from '@mui/material/Box';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Switch from '@mui/material/Switch';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAliasLabels } from '../../../api/aliases.ts';
import { useMemberStatuses } from '../../../api/statuses.ts';
import { AliasTag } from '../../../components/AliasTag.tsx';
import { StatusChip } from '../../../components/StatusChip.tsx';
import { SidebarSection } from '../../../components/shell/ShellContext.tsx';
import { type ChannelMember, memberName } from './useChannelMembers.ts';

const SIDEBAR_TEXT = '#e3edf5';
const SIDEBAR_MUTED = '#9db4c6';
const SIGNAL = '#3fbfb4';

function statusOf(member: ChannelMember): 'inChannel' | 'online' | 'offline' {
  return member.inChannel ? 'inChannel' : member.online ? 'online' : 'offline';
}

const STATUS_COLOR = { inChannel: '#4cd07d', online: '#f2a541', offline: '#7f93a5' } as const;

export interface UsersInChannelSectionProps {
  channelName: string;
  members: ChannelMember[];
  /** Opens the Search User dialog; absent for members, who may not manage the channel. */
  onManage?: () => void;
  /** Makes a member listen-only or lets it talk again (setChannelMemberRights); absent for who may not. */
  onSetCanTalk?: (member: ChannelMember, canTalk: boolean) => void;
}

export function UsersInChannelSection({ channelName, members, onManage, onSetCanTalk }: UsersInChannelSectionProps) {
  const { t } = useTranslation('room');
  const [open, setOpen] = useState(true);
  const statuses = useMemberStatuses();
  const aliases = useAliasLabels();
  const listId = useId();
  const title = t('usersIn', { channel: channelName });
  const sorted = [...members].sort(
    (a, b) =>
      Number(b.inChannel) - Number(a.inChannel) ||
      Number(b.online) - Number(a.online) ||
      memberName(a.user).localeCompare(memberName(b.user)),
  );

  return (
    <SidebarSection>
      <Box
        component="section"
        aria-label={title}
        sx={{ mx: 1.5, mt: 1, mb: 1, borderTop: '1px solid rgba(255,255,255,0.1)', pt: 1, color: SIDEBAR_TEXT }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <ListItemButton
            onClick={() => setOpen((value) => !value)}
            aria-expanded={open}
            aria-controls={listId}
            sx={{ borderRadius: 2, flex: 1, minWidth: 0, py: 0.75, '&:hover': { bgcolor: 'rgba(255,255,255,0.06)' } }}
          >
            <ListItemText
              primary={title}
              slotProps={{ primary: { sx: { fontWeight: 700, fontSize: '0.9rem', overflowWrap: 'anywhere' } } }}
            />
            {open ? <ExpandLessIcon sx={{ color: SIDEBAR_MUTED }} /> : <ExpandMoreIcon sx={{ color: SIDEBAR_MUTED }} />}
          </ListItemButton>
          {onManage ? (
            <Tooltip title={t('members.manage')} placement="right">
              <IconButton
                onClick={onManage}
                aria-label={t('members.manage')}
                sx={{ color: SIGNAL, '&:hover': { bgcolor: 'rgba(63,191,180,0.14)' } }}
              >
                <GroupAddIcon />
              </IconButton>
            </Tooltip>
          ) : null}
        </Box>
        <Collapse in={open} id={listId}>
          {sorted.length === 0 ? (
            <Typography sx={{ px: 2, py: 1, fontSize: '0.85rem', color: SIDEBAR_MUTED }}>
              {t('members.empty')}
            </Typography>
          ) : (
            <List dense disablePadding sx={{ maxHeight: 320, overflowY: 'auto' }}>
              {sorted.map((member) => {
                const status = statusOf(member);
                const entry = statuses.get(member.user.id);
                return (
                  <ListItem
                    key={member.user.id}
                    sx={{ px: 2, py: 0.25, gap: 1.25 }}
                    secondaryAction={
                      onSetCanTalk ? (
                        <Tooltip title={t('members.mayTalk', { name: memberName(member.user) })} placement="right">
                          <Switch
                            size="small"
                            checked={member.canTalk}
                            onChange={(event) => onSetCanTalk(member, event.target.checked)}
                            slotProps={{
                              input: { 'aria-label': t('members.mayTalk', { name: memberName(member.user) }) },
                            }}
                          />
                        </Tooltip>
                      ) : undefined
                    }
                  >
                    <Box
                      component="span"
                      aria-hidden
                      sx={{ width: 9, height: 9, borderRadius: '50%', flexShrink: 0, bgcolor: STATUS_COLOR[status] }}
                    />
                    <ListItemText
                      primary={memberName(member.user)}
                      secondary={
                        <>
                          {member.canTalk
                            ? t(`members.${status}`)
                            : `${t(`members.${status}`)} · ${t('members.listenOnly')}`}
                          {aliases.has(member.user.id) ? (
                            <Box component="span" sx={{ display: 'flex', mt: 0.25 }}>
                              <AliasTag alias={aliases.get(member.user.id)} />
                            </Box>
                          ) : null}
                          {entry ? (
                            <Box component="span" sx={{ display: 'flex', mt: 0.25 }}>
                              <StatusChip status={entry.status} since={entry.since} setBy={entry.setBy} />
                            </Box>
                          ) : null}
                        </>
                      }
                      slotProps={{
                        primary: { sx: { fontSize: '0.875rem', color: SIDEBAR_TEXT }, noWrap: true },
                        secondary: {
                          component: 'div',
                          sx: { fontSize: '0.72rem', color: SIDEBAR_MUTED, '& .MuiChip-root': { color: SIDEBAR_TEXT } },
                        },
                      }}
                    />
                  </ListItem>
                );
              })}
            </List>
          )}
        </Collapse>
      </Box>
    </SidebarSection>
  );
}
