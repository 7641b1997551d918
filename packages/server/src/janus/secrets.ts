/**
 * What Janus asks of Talkgroup beyond its API secret (JANUS_API_SECRET, every request's `apisecret`):
 * - the plugins' `admin_key` (janus.plugin.audiobridge.jcfg, janus.plugin.streaming.jcfg): only a holder may
 *   create a room or a mountpoint, or (AudioBridge `lock_rtp_forward`) forward a room's audio anywhere;
 * - each room's and mountpoint's own `secret`, which Janus asks to destroy, edit, kick from, list the forwarders
 *   of or forward a room, and to destroy a mountpoint or read all of its info;
 * - each room's and mountpoint's `pin`, which Janus asks to join the room or watch the mountpoint.
 * The admin key is the API secret (one secret to keep, shared only by Talkgroup's servers and Janus); a room's
 * secret and pin are derived from it (HMAC-SHA256 with the room's id), the same on every app instance, nothing to store.
 * Without JANUS_API_SECRET (a Janus on this machine whose configuration asks for none) the rooms still get a
 * secret, derived from an empty key: it keeps out nobody who may speak to that open API anyway.
 */
import { createHmac } from 'node:crypto';

export interface JanusKeys {
  /** The plugins' admin_key ({} without JANUS_API_SECRET), to spread into create and rtp_forward requests. */
  readonly admin: { admin_key?: string };
  /** The secret of a channel's AudioBridge room and of its Streaming mountpoint. */
  roomSecret(channelId: number): string;
  /** The pin of a channel's room and mountpoint: who joins or watches gives it. */
  roomPin(channelId: number): string;
  /** The secret and the pin of a channel's live video room (issue 61), apart from its voice rooms'. */
  videoSecret(channelId: number): string;
  videoPin(channelId: number): string;
}

function derived(apiSecret: string | undefined, what: string, channelId: number): string {
  return createHmac('sha256', apiSecret ?? '')
    .update(`talkgroup-${what}:${channelId}`)
    .digest('hex');
}

export function janusKeys(apiSecret: string | undefined): JanusKeys {
  return {
    admin: apiSecret ? { admin_key: apiSecret } : {},
    roomSecret: (channelId) => derived(apiSecret, 'room', channelId),
    roomPin: (channelId) => derived(apiSecret, 'pin', channelId),
    videoSecret: (channelId) => derived(apiSecret, 'video-room', channelId),
    videoPin: (channelId) => derived(apiSecret, 'video-pin', channelId),
  };
}
