/**
 * The map area of the room (spec section 2): the members' map with the channel users table beside it, the
 * 'Unknown location' dialog, and on narrow screens a button that scrolls to the map.
 */
import MapIcon from '@mui/icons-material/Map';
import Box from '@mui/material/Box';
import Fab from '@mui/material/Fab';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ClientConfig } from '@talkgroup/protocol';
import { WIDE_LAYOUT_MIN_WIDTH } from '@talkgroup/protocol';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChannelMembersTable } from '../members/ChannelMembersTable.tsx';
import { UnknownLocationDialog } from '../members/UnknownLocationDialog.tsx';
import { type ChannelMember, memberName } from '../members/useChannelMembers.ts';
import { MembersMap, type MembersMapHandle } from './MembersMap.tsx';

export interface RoomMapSectionProps {
  members: ChannelMember[];
  isLoading: boolean;
  config: ClientConfig | undefined;
  describeActivity: (member: ChannelMember) => string;
}

export function RoomMapSection({ members, isLoading, config, describeActivity }: RoomMapSectionProps) {
  const { t } = useTranslation('room');
  const mapRef = useRef<MembersMapHandle | null>(null);
  const mapBoxRef = useRef<HTMLDivElement | null>(null);
  const [unknown, setUnknown] = useState<string | null>(null);
  const narrow = !useMediaQuery(`(min-width:${WIDE_LAYOUT_MIN_WIDTH}px)`, { noSsr: true });
  const [mapVisible, setMapVisible] = useState(true);

  useEffect(() => {
    const element = mapBoxRef.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => setMapVisible(entry.isIntersecting), { threshold: 0.25 });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const scrollToMap = () => mapBoxRef.current?.scrollIntoView({ behavior: 'smooth', block: 'center' });

  const select = (member: ChannelMember) => {
    if (!member.position || !mapRef.current?.centerOn(member.user.id)) {
      setUnknown(memberName(member.user));
      return;
    }
    if (narrow) scrollToMap();
  };

  return (
    <Paper
      component="section"
      aria-labelledby="room-map-title"
      variant="outlined"
      sx={{ p: { xs: 1.5, sm: 2 }, borderRadius: 3 }}
    >
      <Typography id="room-map-title" component="h2" variant="h5" sx={{ mb: 1.5 }}>
        {t('map.title')}
      </Typography>
      {/* Side by side only when the section itself is wide enough (the chat column may take the room). */}
      <Box sx={{ containerType: 'inline-size' }}>
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: '1fr',
            alignItems: 'start',
            '@container (min-width: 860px)': { gridTemplateColumns: 'minmax(0, 1fr) 340px' },
          }}
        >
          <Box ref={mapBoxRef} id="room-map" sx={{ minWidth: 0, scrollMarginTop: 80 }}>
            {config ? (
              <MembersMap ref={mapRef} members={members} config={config} describeActivity={describeActivity} />
            ) : (
              <Box sx={{ height: 440, borderRadius: 3, bgcolor: '#23394d' }} />
            )}
          </Box>
          <Box sx={{ minWidth: 0 }}>
            <ChannelMembersTable members={members} isLoading={isLoading} onSelect={select} />
          </Box>
        </Box>
      </Box>
      <UnknownLocationDialog name={unknown} onClose={() => setUnknown(null)} />
      {narrow && !mapVisible ? (
        <Fab
          variant="extended"
          color="primary"
          size="medium"
          onClick={scrollToMap}
          sx={{ position: 'fixed', left: 16, bottom: 16, zIndex: (theme) => theme.zIndex.speedDial }}
        >
          <MapIcon sx={{ mr: 1 }} aria-hidden />
          {t('map.scrollTo')}
        </Fab>
      ) : null}
    </Paper>
  );
}
