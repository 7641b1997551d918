/**
 * The map's background (issue 58): the configured tile layer (MAP_TILE_URL) with its credit line
 * (MAP_ATTRIBUTION) and the labels layer over it (MAP_LABELS_URL), put inside a react-leaflet map. When the
 * tiles do not load (offline, a closed network without a tile server, a server that answers errors), the map
 * says so in a sentence over a plain light background and keeps its markers, trails and zones; it asks again
 * now and then, not for every tile (tileHealth.ts), and the tiles come back on their own when one loads.
 */
import Box from '@mui/material/Box';
import type { ClientConfig } from '@talkgroup/protocol';
import type L from 'leaflet';
import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { type TileAt, type TileState, tileHealth, tileLayerEvents } from './tileHealth.ts';

/** The background when no tile loads: light, so that markers, trails and zones read as on paper. */
const PLAIN_BACKGROUND = '#e6ebef';

/** The credit line as text: Leaflet writes attributions as HTML, an operator's setting is only text here. */
function asText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The tile under the map's centre at its zoom (capped to what the source serves). */
function centreTile(map: L.Map, maxZoom: number): ReturnType<TileAt> {
  const z = Math.max(0, Math.min(Math.round(map.getZoom()), maxZoom));
  const point = map.project(map.getCenter(), z).divideBy(256).floor();
  const size = 2 ** z;
  const y = Math.min(Math.max(point.y, 0), size - 1);
  return { z, x: ((point.x % size) + size) % size, y };
}

/** The source's state, while `attached` (a map shows it); `unknown` for no source. */
function useTileState(template: string | null, at: TileAt, attached: boolean): TileState {
  const subscribe = useCallback(
    (listener: () => void) => (template ? tileHealth.subscribe(template, listener) : () => {}),
    [template],
  );
  const state = useSyncExternalStore(subscribe, () => (template ? tileHealth.state(template) : 'unknown'));
  useEffect(() => {
    if (!template || !attached) return;
    return tileHealth.attach(template, at);
  }, [template, at, attached]);
  return state;
}

/**
 * Leaflet names its zoom buttons in English ("Zoom in"): they are named in the reader's language instead (issue 70),
 * again when the language changes.
 */
function useZoomNames(map: L.Map) {
  const { t } = useTranslation('room');
  const zoomIn = t('mapZoom.in');
  const zoomOut = t('mapZoom.out');
  useEffect(() => {
    const container = map.zoomControl?.getContainer();
    for (const [selector, name] of [
      ['.leaflet-control-zoom-in', zoomIn],
      ['.leaflet-control-zoom-out', zoomOut],
    ] as const) {
      const button = container?.querySelector(selector);
      button?.setAttribute('title', name);
      button?.setAttribute('aria-label', name);
    }
  }, [map, zoomIn, zoomOut]);
}

export function BaseTiles({ config }: { config: ClientConfig }) {
  const { t } = useTranslation('room');
  const map = useMap();
  useZoomNames(map);
  const maxZoom = config.mapMaxZoom;
  const at = useCallback(() => centreTile(map, maxZoom), [map, maxZoom]);
  const base = useTileState(config.mapTileUrl, at, true);
  const labelsUrl = config.mapLabelsUrl;
  const labels = useTileState(labelsUrl, at, base === 'up');
  const baseEvents = useMemo(() => tileLayerEvents(config.mapTileUrl), [config.mapTileUrl]);
  const labelEvents = useMemo(() => (labelsUrl ? tileLayerEvents(labelsUrl) : undefined), [labelsUrl]);

  useMapEvents({ moveend: () => tileHealth.moved(config.mapTileUrl) });

  useEffect(() => {
    const container = map.getContainer();
    container.style.backgroundColor = base === 'down' ? PLAIN_BACKGROUND : '';
    container.dataset.tiles = base;
    return () => {
      container.style.backgroundColor = '';
    };
  }, [map, base]);

  return (
    <>
      {base === 'up' ? (
        <TileLayer
          url={config.mapTileUrl}
          maxZoom={maxZoom}
          attribution={config.mapAttribution ? asText(config.mapAttribution) : undefined}
          eventHandlers={baseEvents}
        />
      ) : null}
      {base === 'up' && labelsUrl && labels === 'up' ? (
        <TileLayer url={labelsUrl} maxZoom={maxZoom} eventHandlers={labelEvents} />
      ) : null}
      {base === 'down'
        ? createPortal(
            <Box
              role="status"
              sx={{
                position: 'absolute',
                top: 10,
                left: '50%',
                transform: 'translateX(-50%)',
                width: 'max-content',
                maxWidth: 'calc(100% - 100px)',
                zIndex: 1000,
                pointerEvents: 'none',
                px: 1.5,
                py: 0.75,
                borderRadius: 2,
                bgcolor: 'rgba(255, 255, 255, 0.95)',
                color: '#1f2933',
                boxShadow: '0 1px 4px rgba(0,0,0,0.3)',
                font: '600 13px/1.4 system-ui, sans-serif',
                textAlign: 'center',
              }}
            >
              {t('map.tilesUnavailable')}
            </Box>,
            map.getContainer(),
          )
        : null}
    </>
  );
}
