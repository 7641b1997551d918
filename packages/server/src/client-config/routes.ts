/** The browser's share of the configuration: ICE servers for the voice rooms and the map's tile sources. */
import { GetClientConfig } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import { defineRoutes } from '../http/route.ts';
import type { Services } from '../services.ts';

/** Esri World Imagery and most public imagery sources serve tiles down to zoom 19. */
const DEFAULT_MAP_MAX_ZOOM = 19;

export function clientConfigRoutes(app: FastifyInstance, services: Services): void {
  const route = defineRoutes(app, services.sessions);
  const { iceServers, mapTileUrl, mapLabelsUrl, positionStaleMs } = services.config;

  // Signed-in only: TURN credentials may be among the ICE servers.
  route(GetClientConfig, async () => ({
    success: true,
    res: {
      iceServers: iceServers.map(({ urls, username, credential }) => ({
        urls,
        ...(username !== undefined ? { username } : {}),
        ...(credential !== undefined ? { credential } : {}),
      })),
      mapTileUrl,
      mapLabelsUrl: mapLabelsUrl ?? null,
      mapMaxZoom: DEFAULT_MAP_MAX_ZOOM,
      positionStaleMs,
    },
  }));
}
