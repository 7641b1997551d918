/**
 * Issue 70: the foot of every /talk page, always on screen: what the server did to the phone (its open alert, its
 * microphone opened by an alert) and the SOS. The page scrolls above it; its height is `--talk-dock-height` on the
 * page's root, so that notices (snackbars) rise above it rather than cover the SOS (TalkLayout).
 */
import Box from '@mui/material/Box';
import { useEffect, useState } from 'react';
import { useMatch } from 'react-router';
import { SosButton, useMyEmergencyAlert } from '../../engines/emergency/index.ts';
import { MyAlertBand, OpenMicBand } from './SafetyBands.tsx';
import { useOpenMic } from './useOpenMic.ts';

export const TALK_DOCK_HEIGHT = 'var(--talk-dock-height, 0px)';

function useDockHeight() {
  const [element, setElement] = useState<HTMLElement | null>(null);
  useEffect(() => {
    if (!element || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() =>
      root.style.setProperty('--talk-dock-height', `${element.offsetHeight}px`),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--talk-dock-height');
    };
  }, [element]);
  return setElement;
}

export function TalkDock() {
  const dock = useDockHeight();
  // On a channel page the SOS names that channel; on the home page the server takes the one the member is in.
  const channelId = Number(useMatch('/talk/:channelId')?.params.channelId) || undefined;
  const mine = useMyEmergencyAlert();
  const openMic = useOpenMic();
  const taken = mine.alert?.acknowledgedBy
    ? { alertId: mine.alert.id, name: mine.alert.acknowledgedBy.display_name }
    : null;
  return (
    <Box
      ref={dock}
      data-testid="talk-dock"
      sx={{
        flex: 'none',
        display: 'flex',
        flexDirection: 'column',
        gap: 0.75,
        px: 1.5,
        pt: 0.75,
        pb: 'calc(6px + env(safe-area-inset-bottom))',
        borderTop: '1px solid',
        borderColor: 'divider',
        bgcolor: 'background.paper',
        boxShadow: '0 -2px 6px rgba(0,0,0,0.08)',
      }}
    >
      <OpenMicBand openMic={openMic} />
      <MyAlertBand mine={mine} />
      <SosButton channelId={channelId} size={60} acknowledgedBy={taken} />
    </Box>
  );
}
