/**
 * The map of the channel's members (spec section 2, map view): the configured tiles (satellite imagery
 * with a labels layer on top: the hybrid map), one marker per member with a known position, labelled with
 * three letters of the pseudo, green when the member's socket is in this channel; faded, with a dashed
 * border, when the position is older than the configured freshness (positionStaleMs), as a dot that is no
 * longer live. Clicking a marker opens the last activity, the position's age, longitude and latitude.
 * Markers move as positions arrive.
 * Tiles that fail to load (offline, tests) leave a plain background; everything else keeps working.
 */
import 'leaflet/dist/leaflet.css';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ClientConfig } from '@talkgroup/protocol';
import { formatDistanceStrict } from 'date-fns';
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
import { MapContainer, Marker, Popup, TileLayer, useMap } from 'react-leaflet';
import { dateLocale } from '../../i18n/dates.ts';
import { type ChannelMember, memberName } from '../room/members/useChannelMembers.ts';
import { CooperativeGestures, type GestureHint } from './CooperativeGestures.tsx';
import { markerLabel } from './markerLabel.ts';

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

/** A label icon whose element Leaflet makes carries the member's name and state, however often it is redrawn. */
class MemberIcon extends L.DivIcon {
  private readonly attributes: Record<string, string>;

  constructor(label: string, inChannel: boolean, stale: boolean, attributes: Record<string, string>) {
    const element = document.createElement('span');
    element.className = 'tg-marker-label';
    // textContent, not HTML: a pseudo is user input.
    element.textContent = label;
    super({
      className: `tg-marker ${inChannel ? 'tg-marker--in-channel' : 'tg-marker--elsewhere'}${stale ? ' tg-marker--stale' : ''}`,
      html: element,
      iconSize: [46, 30],
      iconAnchor: [23, 38],
      popupAnchor: [0, -36],
    });
    this.attributes = attributes;
  }

  override createIcon(oldIcon?: HTMLElement): HTMLElement {
    const icon = super.createIcon(oldIcon);
    for (const [name, value] of Object.entries(this.attributes)) icon.setAttribute(name, value);
    return icon;
  }
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

function MemberMarker({
  member,
  markers,
  describeActivity,
  format,
  now,
  staleAfterMs,
  action,
}: {
  action?: ReactNode;
  member: ChannelMember;
  markers: React.RefObject<Map<number, L.Marker>>;
  describeActivity: (member: ChannelMember) => string;
  format: (value: number) => string;
  now: number;
  staleAfterMs: number;
}) {
  const { t, i18n } = useTranslation('room');
  const markerRef = useRef<L.Marker | null>(null);
  const position = member.position as NonNullable<ChannelMember['position']>;
  const name = memberName(member.user);
  const status = member.inChannel ? t('map.inChannel') : t('map.notInChannel');
  const label = markerLabel(member.user.pseudo || name);
  const userId = member.user.id;
  const takenAt = Date.parse(position.createdAt);
  const stale = Number.isFinite(takenAt) && now - takenAt > staleAfterMs;
  const age = Number.isFinite(takenAt)
    ? formatDistanceStrict(Math.min(takenAt, now), now, { locale: dateLocale(i18n.resolvedLanguage), addSuffix: true })
    : '';
  const freshness = stale ? t('map.stale', { age }) : t('map.fresh', { age });
  const icon = useMemo(
    () =>
      new MemberIcon(label, member.inChannel, stale, {
        'aria-label': `${name}, ${status}`,
        'aria-description': freshness,
        'data-user-id': String(userId),
        'data-in-channel': member.inChannel ? 'true' : 'false',
        'data-fresh': stale ? 'false' : 'true',
      }),
    [label, member.inChannel, name, status, userId, stale, freshness],
  );

  useEffect(() => {
    const marker = markerRef.current;
    if (!marker) return;
    markers.current.set(userId, marker);
    return () => {
      markers.current.delete(userId);
    };
  }, [markers, userId]);

  return (
    <Marker ref={markerRef} position={[position.lat, position.lng]} icon={icon} title={name}>
      <Popup>
        <Box sx={{ minWidth: 200 }} data-testid="marker-popup">
          <Typography sx={{ fontWeight: 700, fontSize: '0.95rem' }}>{name}</Typography>
          <Typography variant="caption" sx={{ color: member.inChannel ? 'success.main' : 'text.secondary' }}>
            {status}
          </Typography>
          <Typography variant="body2" sx={{ mt: 0.75 }}>
            {describeActivity(member)}
          </Typography>
          <Typography variant="body2" sx={{ mt: 0.5, color: stale ? 'warning.dark' : 'text.secondary' }}>
            {freshness}
          </Typography>
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {t('map.longitude')} : {format(position.lng)}
          </Typography>
          <Typography variant="body2">
            {t('map.latitude')} : {format(position.lat)}
          </Typography>
          {action ? <Box sx={{ mt: 1 }}>{action}</Box> : null}
        </Box>
      </Popup>
    </Marker>
  );
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
        <TileLayer
          url={config.mapTileUrl}
          maxZoom={config.mapMaxZoom}
          attribution="Esri, Maxar, Earthstar Geographics"
        />
        {config.mapLabelsUrl ? <TileLayer url={config.mapLabelsUrl} maxZoom={config.mapMaxZoom} /> : null}
        <CooperativeGestures onHint={onHint} />
        <FitOnce members={members} />
        <MapHandle handleRef={ref} markers={markers} maxZoom={config.mapMaxZoom} />
        {children}
        {located.map((member) => (
          <MemberMarker
            key={member.user.id}
            member={member}
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
