/**
 * What the browser needs from the server's configuration (not in the spec; see docs/api.md): the ICE
 * servers of the voice rooms and the map's tile sources. Signed-in only, since TURN credentials may be in it.
 */
import { z } from 'zod';
import { call, Empty, ok } from './call.ts';

export const ClientIceServerSchema = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type ClientIceServer = z.output<typeof ClientIceServerSchema>;

export const ClientConfigSchema = z.object({
  iceServers: z.array(ClientIceServerSchema),
  /** Leaflet tile template of the base layer (satellite imagery by default). */
  mapTileUrl: z.string(),
  /** Leaflet tile template of a labels layer drawn over the base layer (the "hybrid" map); null when none. */
  mapLabelsUrl: z.string().nullable(),
  /**
   * The map's credit line, plain text (MAP_ATTRIBUTION; Esri's for the default imagery; issue 58); null: none.
   * Optional: an older server sends none.
   */
  mapAttribution: z.string().nullable().optional(),
  /** The deepest zoom the tile source serves; the spec's zoom 25 is capped to it. */
  mapMaxZoom: z.number(),
  /** A position older than this (ms) is shown as stale on the maps (POSITION_STALE_SECONDS). */
  positionStaleMs: z.number(),
  /** How many days reported positions are kept (POSITION_RETENTION_DAYS): what a member is told on /talk. */
  positionRetentionDays: z.number(),
  /** A media server carries the voice of `server` channels (JANUS_URL is set). */
  mediaServer: z.boolean(),
  /**
   * When the TURN credentials in iceServers expire (ISO time; TURN_SECRET): the client asks for the
   * configuration again before then. Absent: nothing expires.
   */
  iceServersExpireAt: z.string().optional(),
  /** `relay`: browsers use only TURN-relayed paths (ICE_TRANSPORT_POLICY), `all` (default): any path. */
  iceTransportPolicy: z.enum(['all', 'relay']).optional(),
  /**
   * The VAPID public key to subscribe to push with (base64url of the 65-byte uncompressed P-256 point; issue
   * 34); null when push is off (PUSH=off).
   */
  pushPublicKey: z.string().nullable(),
  /** Passkeys are on: PUBLIC_URL is set (their relying party; issue 47). Off, the account page offers none. */
  passkeys: z.boolean(),
  /**
   * Private calls may be listed and their voice exported by those who export voice, audited
   * (PRIVATE_CALLS_AUDITABLE; issue 47): the audit log's page offers the list.
   */
  privateCallsAuditable: z.boolean(),
  /**
   * Where gateways dial (issue 51): SIP_PUBLIC_ADDRESS and SIP_PORT, so that /settings shows the full SIP
   * address to program (`sip:{number}@{host}:{port}`); null when SIP is off (SIP_PORT unset). Optional: an
   * older server sends none.
   */
  sip: z.object({ host: z.string(), port: z.number() }).nullable().optional(),
});
export type ClientConfig = z.output<typeof ClientConfigSchema>;

export const GetClientConfig = call(ok({ res: ClientConfigSchema }))('/user/api/getClientConfig', 'signedIn', Empty);
