/**
 * The requests that make a channel's rooms on its Janus (rooms.ts keeps what was made and when it goes), the
 * names and codes they use, and how the plain-RTP participants of an AudioBridge room join. Each room and the
 * mountpoint has a secret of its own and is made with the plugins' admin key (secrets.ts). The mountpoint
 * listens on 127.0.0.1 only (`iface`) and the forwarders send there: both are in the same Janus, and RTP sent
 * to its port from the network is never heard by its listeners.
 */
import { AUDIOBRIDGE, type JanusBackend } from './backends.ts';
import { type JanusHandle, JanusPluginError } from './connection.ts';
import type { JanusKeys } from './secrets.ts';

export const LOCAL_GROUP = 'local';
export const PATCH_GROUP = 'patch';
/** AudioBridge's error codes (janus_audiobridge.c). */
export const NO_SUCH_ROOM = 485;
const ROOM_EXISTS = 486;
/** VideoRoom's (janus_videoroom.c). */
export const NO_SUCH_SFU_ROOM = 426;
export const SFU_ROOM_EXISTS = 427;
/** Streaming's: no such mountpoint (455). */
export const NO_SUCH_MOUNTPOINT = 455;
/**
 * Packets a bridge participant's decoder buffers before mixing (Janus's default is 6: 120 ms): push-to-talk
 * wants the first syllable out quickly; 2 packets still absorb a little jitter.
 */
export const PREBUFFER_PACKETS = 2;
/**
 * The loss the bridge's Opus encoder plans for (AudioBridge `default_expectedloss`, at most 20): with it, each
 * packet of the mix carries a low-rate copy of the one before (in-band FEC), so a listener's decoder covers a
 * single lost packet; 0 would turn FEC off even where it is negotiated.
 */
export const EXPECTED_LOSS_PERCENT = 10;
/** The payload type of Opus on the plain-RTP legs inside Janus (forwarders, mountpoint, relay, patches). */
export const OPUS_PT = 100;
/** Where the mountpoint listens and the forwarders send: inside the Janus machine only. */
export const MOUNTPOINT_IFACE = '127.0.0.1';
/** The most pages of a channel that may publish at once (VideoRoom's `publishers`; only one is forwarded). */
const MAX_PUBLISHERS = 10_000;
/** The display name of a bridge's relay participant starts with this, followed by its address. */
export const RELAY_NAME = 'relay:';
/** A patch participant's (patches.ts) starts with this. */
export const PATCH_NAME = 'patch:';

export interface RtpAddress {
  ip: string;
  port: number;
}

export type RtpCodec = 'pcmu' | 'pcma' | 'opus';

export interface RtpLeg {
  codec: RtpCodec;
  payloadType: number;
  /**
   * Opens the SIP server's side of the leg for a Janus at this host (the address Janus sends the mix to); called
   * once the channel's Janus is known.
   */
  open: (janusHost: string) => Promise<RtpAddress>;
}

/**
 * A participant of an AudioBridge room fed by plain RTP (a relay of forwarded voices, a patch's way in): it joins
 * unmuted in its group, then puts the address Janus listens on after its name, so that any instance finds where
 * to forward to. The handle stays with the caller: the participant lives as long as it.
 */
export async function joinAsRtp(
  backend: JanusBackend,
  how: { room: number; pin: string; group: string; name: string; payloadType: number; what: string },
): Promise<{ handle: JanusHandle; address: RtpAddress }> {
  const { session } = await backend.control();
  const handle = await session.attach(AUDIOBRIDGE);
  const joined = await handle.message({
    request: 'join',
    room: how.room,
    pin: how.pin,
    group: how.group,
    display: how.name,
    muted: false,
    rtp: { payload_type: how.payloadType, fec: true },
  });
  const rtp = joined.data.rtp as { ip?: string; port?: number } | undefined;
  if (!rtp?.ip || !rtp.port) throw new Error(`the media server gave no RTP address for ${how.what}`);
  await handle.message({ request: 'configure', display: `${how.name}${rtp.ip}:${rtp.port}` });
  return { handle, address: { ip: rtp.ip, port: rtp.port } };
}

export interface BridgeParticipant {
  id: number;
  display?: string;
  muted?: boolean;
}

/** A catch that lets one Janus error code pass (the room exists already, or is not there). */
export const exists = (code: number) => (error: unknown) => {
  if (!(error instanceof JanusPluginError && error.code === code)) throw error;
};

export async function createSfu(backend: JanusBackend, channelId: number, keys: JanusKeys): Promise<void> {
  const { videoroom } = await backend.control();
  await videoroom
    .message({
      request: 'create',
      room: channelId,
      ...keys.admin,
      secret: keys.roomSecret(channelId),
      pin: keys.roomPin(channelId),
      is_private: true,
      publishers: MAX_PUBLISHERS,
      audiocodec: 'opus',
      videocodec: 'vp8',
      opus_fec: true,
      opus_dtx: true,
      audiolevel_ext: false,
      videoorient_ext: false,
      playoutdelay_ext: false,
      // Only Talkgroup turns a publisher's recording on (with the room's secret).
      lock_record: true,
      notify_joining: false,
    })
    .catch(exists(SFU_ROOM_EXISTS));
}

/** The mountpoint (made if missing); its port. */
export async function createMountpoint(backend: JanusBackend, channelId: number, keys: JanusKeys): Promise<number> {
  const { streaming } = await backend.control();
  const secret = keys.roomSecret(channelId);
  const found = await streaming.message({ request: 'info', id: channelId, secret }).catch((error) => {
    exists(NO_SUCH_MOUNTPOINT)(error);
    return undefined;
  });
  const known = (found?.data.info as { media?: Array<{ port?: number }> } | undefined)?.media?.[0]?.port;
  if (known) return known;
  const created = await streaming.message({
    request: 'create',
    type: 'rtp',
    id: channelId,
    ...keys.admin,
    secret,
    pin: keys.roomPin(channelId),
    is_private: true,
    media: [
      {
        type: 'audio',
        mid: 'a',
        port: 0,
        iface: MOUNTPOINT_IFACE,
        pt: OPUS_PT,
        codec: 'opus',
        rtpmap: 'opus/48000/2',
        // The listeners' browsers are told the stream carries in-band FEC (every talker's encoder adds it).
        fmtp: 'useinbandfec=1',
      },
    ],
  });
  const port = (created.data.stream as { ports?: Array<{ port: number }> } | undefined)?.ports?.[0]?.port;
  if (!port) throw new Error('the media server made a mountpoint without a port');
  return port;
}

export async function createBridge(backend: JanusBackend, channelId: number, keys: JanusKeys): Promise<void> {
  const { audiobridge } = await backend.control();
  await audiobridge
    .message({
      request: 'create',
      room: channelId,
      ...keys.admin,
      secret: keys.roomSecret(channelId),
      pin: keys.roomPin(channelId),
      is_private: true,
      sampling_rate: 48_000,
      audiolevel_ext: false,
      default_prebuffering: PREBUFFER_PACKETS,
      // The mix's encoder (the mountpoint's forwarder and each participant's leg) adds in-band FEC.
      default_expectedloss: EXPECTED_LOSS_PERCENT,
      groups: [LOCAL_GROUP, PATCH_GROUP],
      allow_rtp_participants: true,
    })
    .catch(exists(ROOM_EXISTS));
}

export async function bridgeParticipants(backend: JanusBackend, channelId: number): Promise<BridgeParticipant[]> {
  const { audiobridge } = await backend.control();
  const listed = await audiobridge.message({ request: 'listparticipants', room: channelId });
  return (listed.data.participants as BridgeParticipant[] | undefined) ?? [];
}

/** The address in a relay participant's display (`relay:ip:port`). */
export const addressIn = (display: string | undefined): RtpAddress | undefined => {
  const match = /^relay:(.+):(\d+)$/.exec(display ?? '');
  return match ? { ip: match[1], port: Number(match[2]) } : undefined;
};
