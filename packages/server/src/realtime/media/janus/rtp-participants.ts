/**
 * A SIP gateway's call in a channel (issue 51): a participant of the channel's AudioBridge fed by plain RTP. Like
 * a spec client it hears the channel's mix (the holder's voice comes into the mixer through a relay, feed.ts) and
 * joins muted; holding the floor it is unmuted and recorded like any participant (on-air.ts), and its voice
 * reaches the pages through the mix. Its leg is Opus: the SIP side turns a G.711 gateway's voice into Opus
 * (sip/g711-opus.ts), since AudioBridge's own G.711 resampling loses 15.6 dB of it.
 *
 * The RTP goes between Janus and the SIP server's relay (sip/rtp-relay.ts), never to the gateway directly:
 * the relay keeps the gateway's media to the address that signalled, reads its DTMF and its voice activity.
 */
import { randomInt } from 'node:crypto';
import type { JanusBackend } from '../../../janus/backends.ts';
import {
  LOCAL_GROUP,
  PREBUFFER_PACKETS,
  type RtpAddress,
  type RtpCodec,
  type RtpLeg,
} from '../../../janus/room-requests.ts';
import { attach } from './links.ts';
import { applyHeard } from './on-air.ts';
import { type Participant, serial } from './participants.ts';
import { withRoom } from './placement.ts';
import type { JanusPlaneState } from './plane-state.ts';

/** The display of a gateway's participant starts with this (never taken for a relay's or a patch's). */
export const GATEWAY_NAME = 'gateway:';

export type { RtpCodec, RtpLeg };

/** The host of a Janus's API address (ws://host:8188): where its media is too. */
export const hostOf = (backend: JanusBackend) => new URL(backend.url).hostname.replace(/^\[|\]$/g, '');

/** Joins the participant to the channel's mixer with plain RTP; answers where Janus listens for its voice. */
export function joinRtp(state: JanusPlaneState, participant: Participant, leg: RtpLeg): Promise<RtpAddress> {
  const { channelId, socketId } = participant;
  return serial(participant, () =>
    withRoom(state, channelId, socketId, async (backend) => {
      await state.rooms.bridge(backend, channelId);
      const ours = await leg.open(hostOf(backend));
      const { handle } = await attach(state, participant, backend, 'bridge');
      const joined = await handle.message({
        request: 'join',
        room: channelId,
        pin: state.keys.roomPin(channelId),
        id: randomInt(1, 2 ** 47),
        group: LOCAL_GROUP,
        display: `${GATEWAY_NAME}${participant.name}`,
        muted: true,
        prebuffer: PREBUFFER_PACKETS,
        codec: leg.codec,
        rtp: { ip: ours.ip, port: ours.port, payload_type: leg.payloadType, fec: leg.codec === 'opus' },
      });
      const rtp = joined.data.rtp as { ip?: string; port?: number } | undefined;
      if (!rtp?.ip || !rtp.port) throw new Error('the media server gave no RTP address for the gateway');
      // A page already on the air is relayed into the mixer now that someone hears it there.
      await state.feed.apply(backend, channelId);
      if (participant.heard) await applyHeard(state, participant);
      return { ip: rtp.ip === '0.0.0.0' ? hostOf(backend) : rtp.ip, port: rtp.port };
    }),
  );
}
