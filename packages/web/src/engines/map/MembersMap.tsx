/**
 * The map of the channel's members (spec section 2, map view): the configured tiles (satellite imagery
 * with a labels layer on top: the hybrid map), one marker per member with a known position, labelled with
 * three letters of the pseudo, green when the member's socket is in this channel; faded, with a dashed
 * border, when the position is older than the configured freshness (positionStaleMs), as a dot that is no
 * longer live; the member's status's colour as a dot on its corner (issue 49). Clicking a marker opens its
 * status with its age, the last activity, the position's age, longitude and latitude.
 * Markers move as positions arrive.
 * Tiles that fail to load (offline, a closed network, tests) leave a plain background and a sentence that says so
 * (BaseTiles, issue 58); everything else keeps working.
 */
import 'leaflet/dist/leaflet.css';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ClientConfig } from '@talkgroup/protocol';
import L from 'leaflet';
import {
  type ReactNode,
  type Ref,
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { MapContainer, useMap } from 'react-leaflet';
import { useAliasLabels } from '../../api/aliases.ts';
import { useMemberStatuses } from '../../api/statuses.ts';
import type { ChannelMember } from '../room/members/useChannelMembers.ts';
import { BaseTiles } from './BaseTiles.tsx';
import { CooperativeGestures, type GestureHint } from './CooperativeGestures.tsx';
import { MemberMarker } from './MemberMarker.tsx';

/** Re-reads the clock every so often: a position turns stale without any new event. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** Spec section 9: default zoom 13; the spec's default centre is not given, so France's capital. */
const DEFAULT_CENTER: L.LatLngTuple = [48.8566, 2.3522];
const DEFAULT_ZOOM = 13;
/** Spec section 9: zoom 25 when panning to a user, capped to what the tile source serves. */
const FOCUS_ZOOM = 25;

export interface MembersMapHandle {
  /** Centres the map on a member and opens its marker; false when its position is unknown. */
  centerOn(userId: number): boolean;
}

export interface MembersMapProps {
  members: ChannelMember[];
  config: ClientConfig;
  describeActivity: (member: ChannelMember) => string;
  height?: number | string;
  ref?: Ref<MembersMapHandle>;
  /** What a member's popup offers besides its facts (a "Private call" button). */
  memberAction?: (member: ChannelMember) => ReactNode;
  /** Layers drawn inside the map, under the members (trails, zones: engines/tracking's TrackingLayers). */
  children?: ReactNode;
}

/** Fits the view to the members' positions once, when they first arrive. */
function FitOnce({ members }: { members: ChannelMember[] }) {
  const map = useMap();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    const points = members.flatMap((m) => (m.position ? [[m.position.lat, m.position.lng] as L.LatLngTuple] : []));
    if (points.length === 0) return;
    done.current = true;
    if (points.length === 1) map.setView(points[0], 15);
    else map.fitBounds(L.latLngBounds(points), { padding: [40, 40], maxZoom: 16 });
  }, [map, members]);
  return null;
}

function MapHandle({
  handleRef,
  markers,
  maxZoom,
}: {
  handleRef: Ref<MembersMapHandle> | undefined;
  markers: React.RefObject<Map<number, L.Marker>>;
  maxZoom: number;
}) {
  const map = useMap();
  useImperativeHandle(
    handleRef,
    () => ({
      centerOn(userId: number) {
        const marker = markers.current.get(userId);
        if (!marker) return false;
        map.setView(marker.getLatLng(), Math.min(FOCUS_ZOOM, maxZoom), { animate: false });
        marker.openPopup();
        return true;
      },
    }),
    [map, markers, maxZoom],
  );
  return null;
}

export function MembersMap({
  members,
  config,
  describeActivity,
  height = 440,
  ref,
  memberAction,
  children,
}: MembersMapProps) {
  const { t, i18n } = useTranslation('room');
  const markers = useRef(new Map<number, L.Marker>());
  const [hint, setHint] = useState<GestureHint>(null);
  const onHint = useCallback((next: GestureHint) => setHint(next), []);
  const located = useMemo(() => members.filter((m) => m.position), [members]);
  const now = useNow(15_000);
  const statuses = useMemberStatuses();
  const aliases = useAliasLabels();
  const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
  const number = useMemo(
    () => new Intl.NumberFormat(i18n.resolvedLanguage, { maximumFractionDigits: 6 }),
    [i18n.resolvedLanguage],
  );

  return (
    <Box
      role="region"
      aria-label={t('map.label')}
      sx={{
        position: 'relative',
        height,
        borderRadius: 3,
        overflow: 'hidden',
        border: '1px solid',
        borderColor: 'divider',
        bgcolor: '#23394d',
        // One finger scrolls the page; two fingers reach Leaflet (cooperative gestures).
        '& .leaflet-container': { height: '100%', width: '100%', bgcolor: '#23394d', touchAction: 'pan-x pan-y' },
        '& .tg-marker': { background: 'none', border: 0 },
        '& .leaflet-popup-content': { m: '12px 16px', fontFamily: 'inherit' },
        '& .leaflet-popup-content p': { m: 0 },
        '& .tg-marker-label': {
          position: 'relative',
          display: 'grid',
          placeItems: 'center',
          width: 46,
          height: 30,
          borderRadius: '8px',
          color: '#fff',
          fontWeight: 800,
          fontSize: 13,
          letterSpacing: '0.04em',
          border: '2px solid #fff',
          boxShadow: '0 2px 6px rgba(0,0,0,0.45)',
          boxSizing: 'border-box',
        },
        '& .tg-marker-label::after': {
          content: '""',
          position: 'absolute',
          left: '50%',
          bottom: -9,
          transform: 'translateX(-50%)',
          borderLeft: '7px solid transparent',
          borderRight: '7px solid transparent',
          borderTop: '8px solid #fff',
        },
        // The member's status (issue 49): its colour as a dot on the label's corner.
        '& .tg-marker-status': {
          position: 'absolute',
          top: -7,
          right: -7,
          width: 14,
          height: 14,
          borderRadius: '50%',
          border: '2px solid #fff',
          boxSizing: 'border-box',
        },
        '& .tg-marker--in-channel .tg-marker-label': { bgcolor: '#1e7d3a' },
        '& .tg-marker--elsewhere .tg-marker-label': { bgcolor: '#5b6b7a' },
        // An old position: purple-grey and dashed, clearly not where the member is now.
        '& .tg-marker--stale .tg-marker-label': { bgcolor: '#6a5a8c', borderStyle: 'dashed', opacity: 0.85 },
        // The attribution over imagery: readable (contrast) and its links underlined (not told by colour alone).
        '& .leaflet-control-attribution': { bgcolor: 'rgba(255, 255, 255, 0.92)', color: '#333' },
        '& .leaflet-control-attribution a': { color: '#0b4f8a', textDecoration: 'underline' },
        // A zone's name over imagery.
        '& .tg-zone-label': { fontWeight: 700, bgcolor: 'rgba(255, 255, 255, 0.9)', color: '#333', boxShadow: 'none' },
      }}
    >
      <MapContainer
        center={DEFAULT_CENTER}
        zoom={DEFAULT_ZOOM}
        maxZoom={config.mapMaxZoom}
        scrollWheelZoom={false}
        style={{ height: '100%', width: '100%' }}
      >
        <BaseTiles config={config} />
        <CooperativeGestures onHint={onHint} />
        <FitOnce members={members} />
        <MapHandle handleRef={ref} markers={markers} maxZoom={config.mapMaxZoom} />
        {children}
        {located.map((member) => (
          <MemberMarker
            key={member.user.id}
            member={member}
            statusEntry={statuses.get(member.user.id)}
            alias={aliases.get(member.user.id)}
            markers={markers}
            describeActivity={describeActivity}
            format={(value) => number.format(value)}
            now={now}
            staleAfterMs={config.positionStaleMs}
            action={memberAction?.(member)}
          />
        ))}
      </MapContainer>
      <Box
        aria-hidden={hint === null}
        sx={{
          position: 'absolute',
          inset: 0,
          zIndex: 1000,
          display: 'grid',
          placeItems: 'center',
          pointerEvents: 'none',
          bgcolor: 'rgba(15,37,55,0.55)',
          color: '#fff',
          opacity: hint ? 1 : 0,
          visibility: hint ? 'visible' : 'hidden',
          transition: 'opacity 200ms ease, visibility 200ms',
          p: 3,
          textAlign: 'center',
        }}
      >
        <Typography sx={{ fontWeight: 700, fontSize: '1.1rem' }}>
          {hint === 'touch' ? t('map.hintTouch') : isMac ? t('map.hintWheelMac') : t('map.hintWheel')}
        </Typography>
      </Box>
    </Box>
  );
}
