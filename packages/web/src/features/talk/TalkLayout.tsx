/**
 * The members' app frame (/talk and /talk/:channelId): no console shell, a phone-first page. It registers
 * the service worker (scoped to /talk: the console is never served from a cache), says when the phone is
 * offline or the server refuses its connection, runs the scan of the member's channels (scan.tsx), and offers to reload when a new version is installed.
 */

import { useRegisterSW } from 'virtual:pwa-register/react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import GlobalStyles from '@mui/material/GlobalStyles';
import Snackbar from '@mui/material/Snackbar';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useOutletContext } from 'react-router';
import { useConnectionRefusal } from '../../components/ConnectionBanner.tsx';
import { SOS_BAND_HEIGHT } from '../../engines/emergency/index.ts';
import { AmbientListeningAgent } from './AmbientListening.tsx';
import { DeviceStatusReporter } from './DeviceStatusReporter.tsx';
import { LoneWorkPrompt } from './LoneWork.tsx';
import { ManDownWatch } from './manDown/ManDown.tsx';
import { SelectedChannelFollower } from './SelectedChannelFollower.tsx';
import { ScanProvider } from './scan.tsx';
import { TALK_DOCK_HEIGHT, TalkDock } from './TalkDock.tsx';
import { useOnline } from './useOnline.ts';
import { VideoRequestPrompt } from './VideoRequestPrompt.tsx';

/**
 * Issue 70: every notice of /talk (a snackbar, whichever feature shows it, at the top or the bottom) sits just above
 * the dock: it covers neither the SOS nor the page's title bar.
 */
const SNACKBARS_ABOVE_DOCK = {
  'body .MuiSnackbar-root[class*="MuiSnackbar-anchorOrigin"]': {
    top: 'auto',
    bottom: `calc(${TALK_DOCK_HEIGHT} + 8px)`,
  },
};

export interface TalkShellContext {
  /** The account menu (language, Logout) for the page's top bar. */
  accountMenu: ReactNode;
}

export function useTalkShell(): TalkShellContext {
  return useOutletContext<TalkShellContext>();
}

function UpdatePrompt() {
  const { t } = useTranslation('talk');
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({ immediate: true });
  return (
    <Snackbar open={needRefresh} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      <Alert
        severity="info"
        variant="filled"
        action={
          <>
            <Button color="inherit" size="small" onClick={() => setNeedRefresh(false)} sx={{ minHeight: 44 }}>
              {t('update.later')}
            </Button>
            <Button color="inherit" size="small" onClick={() => void updateServiceWorker(true)} sx={{ minHeight: 44 }}>
              {t('update.reload')}
            </Button>
          </>
        }
      >
        {t('update.available')}
      </Alert>
    </Snackbar>
  );
}

export function TalkLayout({ accountMenu }: { accountMenu: ReactNode }) {
  const { t } = useTranslation('talk');
  const online = useOnline();
  // Online, but the server refuses the connection (too many from this address, the server full…): why.
  const refused = useConnectionRefusal();
  const warning = online ? refused : t('offline');
  return (
    // Issue 70: one screen high, the page scrolling between its warnings and the dock, which stays at the foot.
    <Box sx={{ height: '100dvh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <GlobalStyles styles={SNACKBARS_ABOVE_DOCK} />
      {/* Room for the SOS band of who takes alerts: it covers none of the page (issue 58). */}
      <Box aria-hidden sx={{ height: SOS_BAND_HEIGHT, flex: 'none' }} />
      {warning ? (
        <Alert severity="warning" square role="status" sx={{ borderRadius: 0 }}>
          {warning}
        </Alert>
      ) : null}
      {/* Issue 60: who listens to this phone's surroundings, where the organisation announces it. */}
      <AmbientListeningAgent />
      {/* Every channel of the member's is heard while /talk is open (scan), whichever page is on screen. */}
      <ScanProvider>
        <Box
          data-testid="talk-page"
          // Its parts keep their height (the home page's wrapped title bar too) and scroll; a channel page fills it.
          sx={{
            flex: 1,
            minHeight: 0,
            overflowY: 'auto',
            display: 'flex',
            flexDirection: 'column',
            '& > *': { flexShrink: 0 },
          }}
        >
          <Outlet context={{ accountMenu } satisfies TalkShellContext} />
        </Box>
        {/* Issue 70: the SOS, and what the server did to this phone, in reach on every page. */}
        <TalkDock />
      </ScanProvider>
      <UpdatePrompt />
      <SelectedChannelFollower />
      <DeviceStatusReporter />
      {/* Issue 60: "Are you OK?" on whichever /talk page is open. */}
      <LoneWorkPrompt />
      {/* Issue 60: man-down detection, while it is on, on whichever /talk page is open. */}
      <ManDownWatch />
      {/* Issue 61: a dispatcher asks for this phone's video. */}
      <VideoRequestPrompt />
    </Box>
  );
}
