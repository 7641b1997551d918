/**
 * The sidebar (spec section 2): clock, Dashboard, Users (+ add user), Channels (+ add channel), Activities,
 * then the slot where a page adds its own section (the room's 'Users in {channel}').
 */
import CloseIcon from '@mui/icons-material/Close';
import DashboardIcon from '@mui/icons-material/DashboardOutlined';
import FactCheckIcon from '@mui/icons-material/FactCheck';
import GroupIcon from '@mui/icons-material/GroupOutlined';
import HeadsetMicIcon from '@mui/icons-material/HeadsetMicOutlined';
import HistoryIcon from '@mui/icons-material/History';
import InsightsIcon from '@mui/icons-material/InsightsOutlined';
import PersonAddIcon from '@mui/icons-material/PersonAddAlt1';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import PodcastsIcon from '@mui/icons-material/Podcasts';
import SecurityIcon from '@mui/icons-material/Security';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { APP_VERSION } from '@talkgroup/protocol';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useMay } from '../../api/session.ts';
import { Logo } from '../../components/Logo.tsx';
import type { ShellActions } from '../../components/shell/ShellContext.tsx';
import { consoleColors, onDarkFocus } from '../theme.ts';
import { Clock } from './Clock.tsx';

export const SIDEBAR_WIDTH = 280;

interface NavEntry {
  to: string;
  label: string;
  icon: ReactNode;
  action?: { label: string; icon: ReactNode; onClick: () => void };
}

export interface SidebarProps extends ShellActions {
  narrow: boolean;
  onNavigate: () => void;
  onClose: () => void;
  slotRef: (element: HTMLElement | null) => void;
}

export function Sidebar({ narrow, onNavigate, onClose, slotRef, openAddUser, openAddChannel }: SidebarProps) {
  const { t } = useTranslation();
  const { may, somewhere } = useMay();
  // Only what the role may use (a dispatcher manages no users or channels): protocol's roles.ts decides.
  const entries: NavEntry[] = [
    ...(somewhere('statistics.read') ? [{ to: '/dashboard', label: t('nav.dashboard'), icon: <DashboardIcon /> }] : []),
    ...(may('users.manage')
      ? [
          {
            to: '/usersList',
            label: t('nav.users'),
            icon: <GroupIcon />,
            action: { label: t('nav.addUser'), icon: <PersonAddIcon />, onClick: openAddUser },
          },
        ]
      : []),
    {
      to: '/channelsList',
      label: t('nav.channels'),
      icon: <PodcastsIcon />,
      action: may('channels.manage')
        ? { label: t('nav.addChannel'), icon: <PlaylistAddIcon />, onClick: openAddChannel }
        : undefined,
    },
    ...(somewhere('channel.activities')
      ? [{ to: '/activities', label: t('nav.activities'), icon: <HistoryIcon /> }]
      : []),
    ...(somewhere('audit.read') ? [{ to: '/auditLog', label: t('nav.audit'), icon: <FactCheckIcon /> }] : []),
    ...(somewhere('channel.monitor') ? [{ to: '/dispatch', label: t('nav.dispatch'), icon: <HeadsetMicIcon /> }] : []),
    ...(somewhere('channel.reports') ? [{ to: '/reports', label: t('nav.reports'), icon: <InsightsIcon /> }] : []),
    ...(may('settings.manage') ? [{ to: '/settings', label: t('nav.settings'), icon: <SecurityIcon /> }] : []),
  ];

  return (
    <Box
      sx={{
        display: 'flex',
        flexDirection: 'column',
        height: '100%',
        width: SIDEBAR_WIDTH,
        bgcolor: consoleColors.navy,
        color: consoleColors.navyText,
        overflowY: 'auto',
        ...onDarkFocus,
      }}
    >
      {narrow ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25, px: 2, minHeight: 64 }}>
          <Logo size={30} />
          <Typography sx={{ fontWeight: 700, fontSize: '1.1rem', flex: 1 }}>{t('appName')}</Typography>
          <IconButton aria-label={t('nav.closeMenu')} onClick={onClose} sx={{ color: 'inherit' }}>
            <CloseIcon />
          </IconButton>
        </Box>
      ) : (
        <Box sx={{ minHeight: 64 }} />
      )}

      <Clock />
      <Divider sx={{ borderColor: 'rgba(255,255,255,0.1)', mx: 2 }} />

      <Box component="nav" aria-label={t('nav.label')} sx={{ py: 1 }}>
        <List disablePadding>
          {entries.map((entry) => (
            <ListItem
              key={entry.to}
              disablePadding
              secondaryAction={
                entry.action ? (
                  <Tooltip title={entry.action.label} placement="right">
                    <IconButton
                      aria-label={entry.action.label}
                      onClick={() => {
                        entry.action?.onClick();
                        onNavigate();
                      }}
                      sx={{ color: consoleColors.signal, '&:hover': { bgcolor: 'rgba(63,191,180,0.14)' } }}
                    >
                      {entry.action.icon}
                    </IconButton>
                  </Tooltip>
                ) : undefined
              }
              sx={{ '& .MuiListItemSecondaryAction-root': { right: 12 } }}
            >
              <ListItemButton
                component={NavLink}
                to={entry.to}
                onClick={onNavigate}
                sx={{
                  mx: 1.5,
                  my: 0.25,
                  borderRadius: 2,
                  minHeight: 48,
                  color: consoleColors.navyText,
                  '& .MuiListItemIcon-root': { color: consoleColors.navyMuted, minWidth: 40 },
                  '&:hover': { bgcolor: 'rgba(255,255,255,0.06)' },
                  '&.active': {
                    bgcolor: 'rgba(63,191,180,0.16)',
                    color: '#ffffff',
                    boxShadow: `inset 3px 0 0 ${consoleColors.amber}`,
                  },
                  '&.active .MuiListItemIcon-root': { color: consoleColors.signal },
                }}
              >
                <ListItemIcon>{entry.icon}</ListItemIcon>
                <ListItemText primary={entry.label} slotProps={{ primary: { sx: { fontWeight: 600 } } }} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      </Box>

      <Box ref={slotRef} data-testid="sidebar-slot" />

      <Box sx={{ flex: 1 }} />
      <Typography sx={{ px: 2.5, py: 2, fontSize: '0.8rem', color: consoleColors.navyMuted }}>
        {t('appName')} · {t('version', { version: APP_VERSION })}
      </Typography>
    </Box>
  );
}
