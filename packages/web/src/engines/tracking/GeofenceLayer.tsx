/**
 * The zones on a map (inside its MapContainer): each fence as a circle or a polygon with its name, faded once
 * it has ended. Drawing and reshaping are Leaflet-Geoman's (its handles, snapping and self-intersection guard);
 * the toolbar beside the map starts them (useMapTracking's `drawing`, `reshaping`). Clicking a zone opens its
 * settings for one who may draw.
 */
import type {} from '@geoman-io/leaflet-geoman-free';
import type { Geofence, GeofenceShape } from '@talkgroup/protocol';
import L from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Circle, Polygon, Tooltip, useMap } from 'react-leaflet';
import { toLanguage } from '../../i18n/languages.ts';
import type { MapTracking } from './useMapTracking.ts';

const round = (value: number) => Math.round(value * 1e6) / 1e6;

let geoman: Promise<void> | undefined;
/**
 * Geoman (with its geometry libraries, some 400 KB) loads only where zones are drawn, once Leaflet is there: it
 * extends the global `L` that Leaflet's build sets. Maps and layers made before it get their `pm` afterwards.
 */
function loadGeoman(): Promise<void> {
  geoman ??= Promise.all([
    import('@geoman-io/leaflet-geoman-free'),
    import('@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css'),
  ]).then(() => undefined);
  return geoman;
}

function withPm(layer: L.Layer | L.Map): void {
  if (!(layer as { pm?: unknown }).pm) L.PM.reInitLayer(layer as L.Layer);
}

/** The shape of a drawn or reshaped layer, as the server takes it. */
export function shapeOfLayer(layer: L.Layer): GeofenceShape | null {
  if (layer instanceof L.Circle) {
    const centre = layer.getLatLng();
    return { type: 'circle', lat: round(centre.lat), lng: round(centre.lng), radiusM: Math.round(layer.getRadius()) };
  }
  if (layer instanceof L.Polygon) {
    const rings = layer.getLatLngs() as L.LatLng[][] | L.LatLng[];
    const ring = (Array.isArray(rings[0]) ? rings[0] : rings) as L.LatLng[];
    return { type: 'polygon', points: ring.map((point) => [round(point.lat), round(point.lng)] as [number, number]) };
  }
  return null;
}

/** Puts a layer back to the fence's stored shape (a reshape that was cancelled). */
function restore(layer: L.Circle | L.Polygon, fence: Geofence): void {
  if (fence.shape.type === 'circle' && layer instanceof L.Circle) {
    layer.setLatLng([fence.shape.lat, fence.shape.lng]);
    layer.setRadius(fence.shape.radiusM);
  } else if (fence.shape.type === 'polygon' && layer instanceof L.Polygon) {
    layer.setLatLngs(fence.shape.points);
  }
}

const ACTIVE = { color: '#ffb300', weight: 3, fillOpacity: 0.12 };
const ENDED = { color: '#9e9e9e', weight: 2, dashArray: '6 6', fillOpacity: 0.05 };

export function GeofenceLayer({ tracking }: { tracking: MapTracking }) {
  const map = useMap();
  const { i18n } = useTranslation('tracking');
  const layers = useRef(new Map<number, L.Circle | L.Polygon>());
  const { drawing, drawn, reshaping, readReshaped, fences, draws, setSettingsOf } = tracking;
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let gone = false;
    void loadGeoman().then(() => {
      if (gone) return;
      withPm(map);
      setReady(true);
    });
    return () => {
      gone = true;
    };
  }, [map]);

  useEffect(() => {
    if (ready) map.pm.setLang(toLanguage(i18n.resolvedLanguage));
  }, [map, ready, i18n.resolvedLanguage]);

  useEffect(() => {
    if (!drawing || !ready) return;
    const created = (event: { layer: L.Layer }) => {
      const shape = shapeOfLayer(event.layer);
      // The zone is drawn from the server's answer once saved: the sketch goes.
      event.layer.remove();
      if (shape) drawn(shape);
    };
    map.on('pm:create', created);
    map.pm.enableDraw(drawing, { allowSelfIntersection: false, snappable: false, continueDrawing: false });
    return () => {
      map.off('pm:create', created);
      map.pm.disableDraw();
    };
  }, [map, ready, drawing, drawn]);

  useEffect(() => {
    if (reshaping === null || !ready) return;
    const layer = layers.current.get(reshaping);
    const fence = fences.find((candidate) => candidate.id === reshaping);
    if (!layer || !fence) return;
    withPm(layer);
    layer.pm.enable({ allowSelfIntersection: false, snappable: false });
    readReshaped.current = () => shapeOfLayer(layer);
    return () => {
      layer.pm.disable();
      readReshaped.current = null;
      // Saved: the server's shape comes back equal; cancelled: the sketch goes back to what is stored.
      restore(layer, fence);
    };
  }, [ready, reshaping, fences, readReshaped]);

  return (
    <>
      {fences.map((fence) => {
        const style = fence.active ? ACTIVE : ENDED;
        const keep = (layer: L.Circle | L.Polygon | null) => {
          if (layer) layers.current.set(fence.id, layer);
          else layers.current.delete(fence.id);
        };
        const events = draws && reshaping === null ? { click: () => setSettingsOf(fence.id) } : {};
        const label = (
          <Tooltip key={`label-${fence.id}`} direction="center" permanent className="tg-zone-label">
            {fence.name}
          </Tooltip>
        );
        return fence.shape.type === 'circle' ? (
          <Circle
            key={fence.id}
            ref={keep}
            center={[fence.shape.lat, fence.shape.lng]}
            radius={fence.shape.radiusM}
            pathOptions={style}
            eventHandlers={events}
          >
            {label}
          </Circle>
        ) : (
          <Polygon key={fence.id} ref={keep} positions={fence.shape.points} pathOptions={style} eventHandlers={events}>
            {label}
          </Polygon>
        );
      })}
    </>
  );
}
