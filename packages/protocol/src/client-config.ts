/**
 * What the browser needs from the server's configuration (not in the spec; see docs/api.md): the ICE
 * servers of the voice rooms and the map's tile sources. Signed-in only, since TURN credentials may be in it.
 */
import { z } from 'zod';
import type { Call, Ok } from './api.ts';

export interface ClientIceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

export interface ClientConfig {
  iceServers: ClientIceServer[];
  /** Leaflet tile template of the base layer (satellite imagery by default). */
  mapTileUrl: string;
  /** Leaflet tile template of a labels layer drawn over the base layer (the "hybrid" map); null when none. */
  mapLabelsUrl: string | null;
  /** The deepest zoom the tile source serves; the spec's zoom 25 is capped to it. */
  mapMaxZoom: number;
}

const ClientConfigBody = z.object({}).passthrough();
export const GetClientConfig: Call<typeof ClientConfigBody, Ok & { res: ClientConfig }, 'signedIn'> = {
  path: '/user/api/getClientConfig',
  access: 'signedIn',
  body: ClientConfigBody,
};
