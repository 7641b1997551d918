/**
 * Security headers on every answer (pages, API and files) with @fastify/helmet: a Content-Security-Policy
 * that allows what the app uses and nothing more — its own scripts, the configured map tile hosts, its own
 * socket (ws:/wss:), blob:/data: images and media — no framing except the user call view by the origins of
 * FRAME_ANCESTORS, nosniff, no referrer, microphone/camera/geolocation for itself only, and HSTS when the
 * request came over TLS.
 */
import type { IncomingMessage } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.ts';

/** The page a partner site may embed (spec: the user call view), when FRAME_ANCESTORS lists its origin. */
const FRAMEABLE = /^\/userCallView(\/|$)/i;

export const PERMISSIONS_POLICY = 'microphone=(self), camera=(self), geolocation=(self)';

/**
 * The CSP source of a tile URL template: its scheme and host, a `{s}` subdomain becoming `*`
 * (https://{s}.tile.example.org/{z}/{x}/{y}.png -> https://*.tile.example.org).
 */
export function tileSource(template: string | undefined): string | undefined {
  const match = template?.match(/^(https?:)\/\/([^/?#]+)/i);
  if (!match) return undefined;
  const host = match[2].replace(/\{[^}]*\}/g, '*');
  if (!/^(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(host)) return undefined;
  return `${match[1].toLowerCase()}//${host.toLowerCase()}`;
}

/** The socket's own origin, from the Host header (only a plain host[:port] is trusted into a header). */
function ownSockets(req: IncomingMessage): string {
  const host = req.headers.host ?? '';
  return /^[a-z0-9.-]+(:\d+)?$|^\[[0-9a-f:.]+\](:\d+)?$/i.test(host) ? `ws://${host} wss://${host}` : '';
}

function isFrameable(req: IncomingMessage): boolean {
  return FRAMEABLE.test(req.url ?? '');
}

export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const tiles = [tileSource(config.mapTileUrl), tileSource(config.mapLabelsUrl)].filter(
    (source): source is string => source !== undefined,
  );
  const frameAncestors = config.frameAncestors;
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        // MUI (Emotion) inserts its styles at run time and Leaflet positions tiles with style attributes.
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:', ...new Set(tiles)],
        'media-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'", (req) => ownSockets(req as IncomingMessage)],
        'worker-src': ["'self'"],
        'manifest-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-src': ["'none'"],
        'frame-ancestors': [
          (req) => (isFrameable(req as IncomingMessage) ? ["'self'", ...frameAncestors].join(' ') : "'none'"),
        ],
        ...(config.tlsCert ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    // The map's tiles come from other hosts that send no CORP header.
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // Sent below only for a request that came over TLS: a LAN install on http must not be pinned to https.
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    // X-Frame-Options cannot list origins: the frameable page relies on frame-ancestors alone.
    if (isFrameable(request.raw)) reply.raw.removeHeader('x-frame-options');
    if (request.protocol === 'https') {
      reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    }
  });
}
