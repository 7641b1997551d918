/**
 * The signed-in frame (spec section 2): top bar, sidebar, and the page. From 1480px the sidebar stays open;
 * below, it is a drawer toggled from the top bar. Pages reach the shell through components/shell.
 */
import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { WIDE_LAYOUT_MIN_WIDTH } from '@talkgroup/protocol';
import { Suspense, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router';
import { useServerLinkLost } from '../../api/serverEvents.ts';
import { useMay } from '../../api/session.ts';
import { ConnectionBanner } from '../../components/ConnectionBanner.tsx';
import { Logo } from '../../components/Logo.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import { ADD_PARAM, ShellContext, type ShellContextValue } from '../../components/shell/ShellContext.tsx';
import { PrivateCallCenter } from '../../engines/calls/index.ts';
import { EmergencyCenter, SOS_BAND_HEIGHT } from '../../engines/emergency/index.ts';
import { GeofenceAlerts } from '../../engines/tracking/index.ts';
import { consoleColors, onDarkFocus } from '../theme.ts';
import { AccountMenu } from './AccountMenu.tsx';
import { SIDEBAR_WIDTH, Sidebar } from './Sidebar.tsx';

const SIDEBAR_ID = 'shell-sidebar';

export default function ShellLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const narrow = !useMediaQuery(`(min-width:${WIDE_LAYOUT_MIN_WIDTH}px)`, { noSsr: true });
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [sidebarSlot, setSidebarSlot] = useState<HTMLElement | null>(null);

  const openAddUser = useCallback(() => navigate(`/usersList?${ADD_PARAM}=1`), [navigate]);
  const openAddChannel = useCallback(() => navigate(`/channelsList?${ADD_PARAM}=1`), [navigate]);
  const shell = useMemo<ShellContextValue>(
    () => ({ sidebarSlot, narrow, openAddUser, openAddChannel }),
    [sidebarSlot, narrow, openAddUser, openAddChannel],
  );
  const closeDrawer = useCallback(() => setDrawerOpen(false), []);

  const linkLost = useServerLinkLost();
  const hearsZones = useMay().somewhere('channel.geofences');

  return (
    <ShellContext.Provider value={shell}>
      <ConnectionBanner reconnecting={linkLost} />
      <EmergencyCenter />
      {hearsZones ? (
        <Suspense fallback={null}>
          <GeofenceAlerts />
        </Suspense>
      ) : null}
      <PrivateCallCenter />
      <Box sx={{ display: 'flex', minHeight: '100dvh', bgcolor: 'background.default' }}>
        <Link
          href="#main-content"
          sx={{
            position: 'absolute',
            left: 8,
            top: -48,
            zIndex: 2000,
            p: 1,
            bgcolor: 'background.paper',
            '&:focus': { top: 8 },
          }}
        >
          {t('skipToContent')}
        </Link>

        <AppBar
          position="fixed"
          sx={{
            // Below the SOS band when there is one: it covers none of the bar's controls (issue 58).
            top: SOS_BAND_HEIGHT,
            // Wide: the bar spans the open sidebar. Narrow: the drawer (a modal) covers the bar.
            zIndex: (theme) => (narrow ? theme.zIndex.appBar : theme.zIndex.drawer + 1),
            bgcolor: consoleColors.navy,
            borderBottom: '1px solid rgba(255,255,255,0.08)',
            ...onDarkFocus,
          }}
        >
          <Toolbar sx={{ gap: 1, minHeight: { xs: 64 } }}>
            {narrow ? (
              <IconButton
                edge="start"
                color="inherit"
                aria-label={t('nav.openMenu')}
                aria-controls={SIDEBAR_ID}
                aria-expanded={drawerOpen}
                onClick={() => setDrawerOpen(true)}
              >
                <MenuIcon />
              </IconButton>
            ) : null}
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.25, minWidth: 0 }}>
              <Logo size={30} />
              <Typography
                component="span"
                sx={{ fontWeight: 700, fontSize: '1.15rem', display: { xs: 'none', sm: 'inline' } }}
              >
                {t('appName')}
              </Typography>
            </Box>
            <Box sx={{ flex: 1 }} />
            <AccountMenu />
          </Toolbar>
        </AppBar>

        <Drawer
          id={SIDEBAR_ID}
          variant={narrow ? 'temporary' : 'permanent'}
          open={narrow ? drawerOpen : true}
          onClose={closeDrawer}
          ModalProps={{ keepMounted: true }}
          slotProps={{ paper: { 'aria-label': t('nav.label') } }}
          sx={{
            width: narrow ? 0 : SIDEBAR_WIDTH,
            flexShrink: 0,
            '& .MuiDrawer-paper': {
              width: SIDEBAR_WIDTH,
              boxSizing: 'border-box',
              border: 0,
              top: SOS_BAND_HEIGHT,
              height: `calc(100% - ${SOS_BAND_HEIGHT})`,
            },
          }}
        >
          <Sidebar
            narrow={narrow}
            onNavigate={narrow ? closeDrawer : () => {}}
            onClose={closeDrawer}
            slotRef={setSidebarSlot}
            openAddUser={openAddUser}
            openAddChannel={openAddChannel}
          />
        </Drawer>

        <Box
          component="main"
          id="main-content"
          tabIndex={-1}
          sx={{ flex: 1, minWidth: 0, px: { xs: 2, sm: 3, lg: 4 }, pb: 4, outline: 'none' }}
        >
          <Box aria-hidden sx={{ height: SOS_BAND_HEIGHT }} />
          <Toolbar sx={{ minHeight: { xs: 64 }, mb: { xs: 2, sm: 3 } }} />
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </Box>
      </Box>
    </ShellContext.Provider>
  );
}
