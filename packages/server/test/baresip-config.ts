/**
 * What a baresip phone of the harness (baresip.ts) is started with: its `accounts` line, its `config` file, and
 * free ports for its SIP (UDP and TCP), its ctrl_tcp and its RTP on loopback.
 */
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';

export type AudioCodec = 'pcmu' | 'pcma' | 'opus';

const MODULE_PATH = process.env.BARESIP_MODULE_PATH ?? '/usr/lib/baresip/modules';

/**
 * The account's names of the codecs: with `opus_stereo no`, baresip 1.0.0 registers Opus as opus/48000/1 (its
 * SDP still says opus/48000/2, as RFC 7587 wants), and an account naming opus/48000/2 finds no codec.
 */
const CODEC_NAMES: Record<AudioCodec, string> = { pcmu: 'pcmu', pcma: 'pcma', opus: 'opus/48000/1' };

/**
 * The account: its AOR `sip:{login}@{host}:{sipPort}` (what `dial {number}` completes a number with), digest
 * on the INVITE without a REGISTER (`regint=0`, `auth_pass`), its answer mode and its codecs.
 */
export function accountLine(options: {
  login: string;
  host: string;
  sipPort?: number;
  transport: 'udp' | 'tcp';
  secret?: string;
  autoAnswer?: boolean;
  codecs: AudioCodec[];
}): string {
  const uriParams = options.transport === 'tcp' ? ';transport=tcp' : '';
  const aor = `sip:${options.login}@${options.host}${options.sipPort ? `:${options.sipPort}` : ''}`;
  const accountParams = [
    'regint=0',
    options.secret ? `auth_pass=${options.secret}` : undefined,
    `answermode=${options.autoAnswer ? 'auto' : 'manual'}`,
    `audio_codecs=${options.codecs.map((codec) => CODEC_NAMES[codec]).join(',')}`,
    'ptime=20',
  ].filter(Boolean);
  return `<${aor}${uriParams}>;${accountParams.join(';')}\n`;
}

export function baresipConfig(options: {
  host: string;
  sipPort: number;
  controlPort: number;
  rtpPorts: [number, number];
  play: string;
  source: { rate: number; channels: number };
  record: boolean;
  dir: string;
}): string {
  const lines = [
    'poll_method epoll',
    `sip_listen ${options.host}:${options.sipPort}`,
    // The SDP's address and the RTP sockets: the loopback address, not the machine's default route.
    `net_interface ${options.host}`,
    'call_local_timeout 30',
    'call_max_calls 1',
    `audio_source aufile,${options.play}`,
    `ausrc_srate ${options.source.rate}`,
    `ausrc_channels ${options.source.channels}`,
    'audio_level no',
    'ausrc_format s16',
    'auplay_format s16',
    'auenc_format s16',
    'audec_format s16',
    'audio_buffer 20-160',
    `rtp_ports ${options.rtpPorts[0]}-${options.rtpPorts[1]}`,
    'rtcp_mux no',
    'jitter_buffer_delay 5-10',
    'rtp_stats no',
    `module_path ${MODULE_PATH}`,
    // Modules by name only: no alsa or pulse (no audio device), no video, no NAT helpers.
    ...['g711.so', 'opus.so', 'aufile.so', ...(options.record ? ['sndfile.so'] : [])].map((name) => `module ${name}`),
    'module_tmp account.so',
    'module_app menu.so',
    'module_app ctrl_tcp.so',
    `ctrl_tcp_listen ${options.host}:${options.controlPort}`,
    `snd_path ${options.dir}`,
    // Mono Opus both ways, as a radio gateway and Janus's AudioBridge use it (stereo=0;sprop-stereo=0).
    'opus_bitrate 32000',
    'opus_stereo no',
    'opus_sprop_stereo no',
  ];
  return `${lines.join('\n')}\n`;
}

function tcpPortFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

function udpPortFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => resolve(false));
    socket.bind(port, host, () => socket.close(() => resolve(true)));
  });
}

/**
 * A phone's listening ports, three in a row: SIP on UDP and TCP, SIP over TLS on the next one (baresip 1.0.0
 * always adds TLS on the SIP port + 1, and stops if it cannot bind it) and ctrl_tcp on the third. Taken in
 * 65000-65509, above Linux's ephemeral range (32768-60999): a port the kernel hands out to any outgoing
 * connection in between cannot take them (a CI run once lost a phone to that, on its TLS port).
 */
export async function freePhonePorts(host: string): Promise<{ sipPort: number; controlPort: number }> {
  for (;;) {
    const sipPort = 65_000 + Math.floor(Math.random() * 170) * 3;
    const free = await Promise.all([
      udpPortFree(host, sipPort),
      tcpPortFree(host, sipPort),
      tcpPortFree(host, sipPort + 1),
      tcpPortFree(host, sipPort + 2),
    ]);
    if (free.every(Boolean)) return { sipPort, controlPort: sipPort + 2 };
  }
}

/**
 * Ten UDP ports for the phone's RTP and RTCP, in 61000-64999: above Linux's ephemeral range (32768-60999) where
 * free ports handed out by the kernel land, below the phones' listening ports (freePhonePorts), and away from
 * Janus's (20000-20999 shipped, 30000-53999 in tests) and coturn's (49160-49999).
 */
export async function freeRtpPorts(host: string): Promise<[number, number]> {
  for (;;) {
    const base = 61_000 + Math.floor(Math.random() * 400) * 10;
    const ports = Array.from({ length: 10 }, (_, i) => base + i);
    const free = await Promise.all(ports.map((port) => udpPortFree(host, port)));
    if (free.every(Boolean)) return [base, base + 9];
  }
}
