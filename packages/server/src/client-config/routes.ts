/**
 * The browser's share of the configuration: ICE servers for the voice rooms (with time-limited TURN credentials
 * when TURN_SECRET is set), whether a media server carries the voice, and the map's tile sources.
 */
import { GetClientConfig } from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import type { Config } from '../config/config.ts';
import { defineRoutes } from '../http/route.ts';
import type { Push } from '../push/service.ts';
import { turnCredential } from './turn-credentials.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface ClientConfigServices {
  config: Config;
  sessions: SessionStore;
}

/** Esri World Imagery and most public imagery sources serve tiles down to zoom 19. */
const DEFAULT_MAP_MAX_ZOOM = 19;

export function clientConfigRoutes(
  app: FastifyInstance,
  services: ClientConfigServices,
  push: Pick<Push, 'publicKey'>,
): void {
  const route = defineRoutes(app, services.sessions);
  const {
    iceServers,
    mapTileUrl,
    mapLabelsUrl,
    mapAttribution,
    positionStaleMs,
    positionRetentionMs,
    janusUrls,
    turnUrls,
    turnSecret,
    turnTtlMs,
    iceTransportPolicy,
  } = services.config;

  // Signed-in only: TURN credentials are among the ICE servers.
  route(GetClientConfig, async ({ auth }) => {
    const turn =
      turnSecret && turnUrls.length > 0 ? turnCredential(turnSecret, turnUrls, auth.userId, turnTtlMs) : undefined;
    return {
      success: true,
      res: {
        iceServers: [
          ...iceServers.map(({ urls, username, credential }) => ({
            urls,
            ...(username !== undefined ? { username } : {}),
            ...(credential !== undefined ? { credential } : {}),
          })),
          ...(turn ? [{ urls: turn.urls, username: turn.username, credential: turn.credential }] : []),
        ],
        ...(turn ? { iceServersExpireAt: turn.expiresAt.toISOString() } : {}),
        ...(iceTransportPolicy === 'relay' ? { iceTransportPolicy } : {}),
        mapTileUrl,
        mapLabelsUrl: mapLabelsUrl ?? null,
        mapAttribution: mapAttribution ?? null,
        mapMaxZoom: DEFAULT_MAP_MAX_ZOOM,
        positionStaleMs,
        positionRetentionDays: positionRetentionMs / (24 * 3600 * 1000),
        mediaServer: janusUrls.length > 0,
        pushPublicKey: push.publicKey,
        // Issue 47: passkeys only with PUBLIC_URL (their relying party).
        passkeys: services.config.publicUrl !== undefined,
        privateCallsAuditable: services.config.privateCallsAuditable,
        sip: services.config.sip ? { host: services.config.sip.publicAddress, port: services.config.sip.port } : null,
      },
    };
  });
}
