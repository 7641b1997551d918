/**
 * What a map shows of trails and zones, inside its MapContainer: the zones (GeofenceLayer), the followed
 * member's trail (a line through its kept positions, each point with its time on hover, on a canvas so that
 * thousands stay smooth), and while a moment is replayed, where everyone was then.
 */
import L from 'leaflet';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CircleMarker, Polyline, Tooltip, useMap } from 'react-leaflet';
import { formatDate } from '../../i18n/dates.ts';
import { GeofenceLayer } from './GeofenceLayer.tsx';
import { positionAt } from './trailMath.ts';
import type { MapTracking, Trail } from './useMapTracking.ts';

const TRAIL_COLOUR = '#00b0ff';
const TIME = 'dd MMM HH:mm:ss';

function TrailLine({ trail }: { trail: Trail }) {
  const { t, i18n } = useTranslation('tracking');
  const map = useMap();
  const line = useMemo(() => trail.points.map((point) => [point.lat, point.lng] as L.LatLngTuple), [trail.points]);
  const latest = useRef(line);
  latest.current = line;
  const memberId = trail.member.id;
  const firstTime = trail.points[0]?.createdAt;

  // A trail is brought into view when another member or period is chosen, not each time it grows.
  useEffect(() => {
    if (firstTime === undefined || memberId === undefined) return;
    map.fitBounds(L.latLngBounds(latest.current), { padding: [40, 40], maxZoom: 17 });
  }, [map, memberId, firstTime]);

  // Thousands of points: drawn by Leaflet on one canvas, not as as many React components.
  useEffect(() => {
    const renderer = L.canvas({ padding: 0.5 });
    const last = trail.points.length - 1;
    const points = L.layerGroup(
      trail.points.map((point, index) => {
        const edge = index === 0 ? `${t('trail.start')} · ` : index === last ? `${t('trail.end')} · ` : '';
        const label = `${edge}${t('trail.point', {
          name: trail.member.name,
          time: formatDate(point.createdAt, TIME, i18n.resolvedLanguage),
        })}`;
        return L.circleMarker([point.lat, point.lng], {
          renderer,
          radius: index === 0 || index === last ? 6 : 4,
          color: '#fff',
          weight: 1,
          fillColor: TRAIL_COLOUR,
          fillOpacity: 1,
        }).bindTooltip(label);
      }),
    );
    points.addTo(map);
    return () => {
      points.remove();
    };
  }, [map, trail.points, trail.member.name, t, i18n.resolvedLanguage]);

  if (line.length === 0) return null;
  return <Polyline positions={line} pathOptions={{ color: TRAIL_COLOUR, weight: 4, opacity: 0.85 }} />;
}

/** Where each loaded trail was at the replayed moment, labelled with the member's name. */
function ReplayMarkers({ trails, at }: { trails: Map<number, Trail>; at: number }) {
  const { t, i18n } = useTranslation('tracking');
  return (
    <>
      {[...trails.values()].map((trail) => {
        const point = positionAt(trail.points, trail.times, at);
        if (!point) return null;
        return (
          <CircleMarker
            key={trail.member.id}
            center={[point.lat, point.lng]}
            radius={9}
            pathOptions={{ color: '#fff', weight: 2, fillColor: '#ff6d00', fillOpacity: 0.95 }}
          >
            <Tooltip permanent direction="top" offset={[0, -8]}>
              {t('trail.point', {
                name: trail.member.name,
                time: formatDate(point.createdAt, TIME, i18n.resolvedLanguage),
              })}
            </Tooltip>
          </CircleMarker>
        );
      })}
    </>
  );
}

export function TrackingLayers({ tracking }: { tracking: MapTracking }) {
  return (
    <>
      {tracking.draws ? <GeofenceLayer tracking={tracking} /> : null}
      {tracking.followed ? <TrailLine trail={tracking.followed} /> : null}
      {tracking.replayAt !== null ? <ReplayMarkers trails={tracking.trails} at={tracking.replayAt} /> : null}
    </>
  );
}
