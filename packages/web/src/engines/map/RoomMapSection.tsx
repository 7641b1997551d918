/**
 * The map area of the room (spec section 2): the members' map with the channel users table beside it, the
 * 'Unknown location' dialog, and on narrow screens a button that scrolls to the map. With the channel named,
 * its trails and zones too (issue 28, engines/tracking): the tools above the map, the layers in it.
 */
import MapIcon from '@mui/icons-material/Map';
import Box from '@mui/material/Box';
import Fab from '@mui/material/Fab';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ClientConfig } from '@talkgroup/protocol';
import { WIDE_LAYOUT_MIN_WIDTH } from '@talkgroup/protocol';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PrivateCallButton } from '../calls/index.ts';
import { ChannelMembersTable } from '../room/members/ChannelMembersTable.tsx';
import { UnknownLocationDialog } from '../room/members/UnknownLocationDialog.tsx';
import { type ChannelMember, memberName } from '../room/members/useChannelMembers.ts';
import { type MapTracking, TrackingLayers, TrackingToolbar, useMapTracking } from '../tracking/index.ts';
import { MembersMap, type MembersMapHandle } from './MembersMap.tsx';

export interface RoomMapSectionProps {
  members: ChannelMember[];
  isLoading: boolean;
  config: ClientConfig | undefined;
  describeActivity: (member: ChannelMember) => string;
  /** The room's channel: its members' trails and its zones are offered on the map. */
  channel?: { id: number; name: string };
}

/** The trails and zones of the channel's map; `null` until the channel is known. */
function useRoomTracking(channel: RoomMapSectionProps['channel'], members: ChannelMember[]): MapTracking {
  const tracked = useMemo(
    () =>
      members.map((member) => ({
        id: member.user.id,
        name: memberName(member.user),
        located: member.position !== null,
      })),
    [members],
  );
  const id = channel?.id;
  const name = channel?.name;
  const channels = useMemo(() => (id !== undefined ? [{ id, name: name ?? '' }] : undefined), [id, name]);
  return useMapTracking({ channelId: channel?.id, channels, members: tracked });
}

/** A marker's "Private call" (issue 27): the map shows a channel's members, so the caller shares it with them. */
const callButton = (member: ChannelMember) => (
  <PrivateCallButton
    user={{ id: member.user.id, name: memberName(member.user), role: member.user.role }}
    shared
    look="button"
  />
);

export function RoomMapSection({ members, isLoading, config, describeActivity, channel }: RoomMapSectionProps) {
  const { t } = useTranslation('room');
  const tracking = useRoomTracking(channel, members);
  const mapRef = useRef<MembersMapHandle | null>(null);
  const mapBoxRef = useRef<HTMLDivElement | null>(null);
  const [unknown, setUnknown] = useState<string | null>(null);
  const narrow = !useMediaQuery(`(min-width:${WIDE_LAYOUT_MIN_WIDTH}px)`, { noSsr: true });
  // The floating "Carte" only on a phone-sized screen, where the room is one long column: on a console's screen
  // it floated over the room's controls (the SOS button, "Trace de") (issue 58).
  const phone = !useMediaQuery('(min-width:900px)', { noSsr: true });
  const sectionRef = useRef<HTMLElement | null>(null);
  const [mapVisible, setMapVisible] = useState(true);

  // The button goes as soon as any of the section shows: over its tools ("Trace de"), it would cover them (issue 58).
  useEffect(() => {
    const element = sectionRef.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => setMapVisible(entry?.isIntersecting ?? true), {
      threshold: 0,
    });
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
      ref={sectionRef}
      component="section"
      aria-labelledby="room-map-title"
      variant="outlined"
      sx={{ p: { xs: 1.5, sm: 2 }, borderRadius: 3 }}
    >
      <Typography id="room-map-title" component="h2" variant="h5" sx={{ mb: 1.5 }}>
        {t('map.title')}
      </Typography>
      {channel ? <TrackingToolbar tracking={tracking} channelName={channel.name} /> : null}
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
              <MembersMap
                ref={mapRef}
                members={members}
                config={config}
                describeActivity={describeActivity}
                memberAction={callButton}
              >
                {channel ? <TrackingLayers tracking={tracking} /> : null}
              </MembersMap>
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
      {phone && !mapVisible ? (
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
