/**
 * A SIP gateway's call among a channel's peers (issue 51: a radio or a desk phone). It has no socket: its id is
 * `sip:` and its Call-ID, and it is heard through the media server only, so no page ever connects to it.
 */
import type { RoomPeer } from '@talkgroup/protocol';

/** The server's mark (`gateway`), or its id's form for a peer that lost the mark on its way (an older roster). */
export function isGatewayPeer(peer: Pick<RoomPeer, 'id' | 'gateway'>): boolean {
  return peer.gateway !== undefined || peer.id.startsWith('sip:');
}

/** What the roster keeps of a peer: a gateway's call keeps its mark, so that the page shows it and nothing connects to it. */
export function rosterEntry(peer: RoomPeer): Pick<RoomPeer, 'name' | 'userId' | 'mode' | 'gateway'> {
  return { name: peer.name, userId: peer.userId, mode: peer.mode, ...(peer.gateway ? { gateway: peer.gateway } : {}) };
}
