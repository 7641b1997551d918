/**
 * The SIP gateway's settings (issue 51), read from the environment with the rest of the configuration:
 *
 * - `SIP_PORT`: the port SIP listens on, UDP and TCP both (unset: no SIP at all; 0: a free port, for tests).
 * - `SIP_HOST`: the address it binds (HOST's by default, so loopback unless the operator opens it).
 * - `SIP_PUBLIC_ADDRESS`: the address gateways send RTP to and that Contact and Via name (SIP_HOST's, or this
 *   machine's first outside IPv4 address when SIP_HOST is 0.0.0.0).
 * - `SIP_REALM`: the digest realm (`talkgroup`). The gateways' secrets are kept hashed for it: changing it
 *   means new secrets.
 * - `SIP_RTP_PORTS`: the UDP ports of the calls' media (`30000-30999`), apart from Janus's (20000-20999 in
 *   deploy/janus) and coturn's (49160-49999 in deploy/coturn); a range that overlaps one of those is refused.
 * - `SIP_REQUESTS_PER_MINUTE`: how many INVITEs and REGISTERs one address may send a minute (120; a working
 *   gateway redialling 30 times a minute always passes).
 */
import os from 'node:os';
import { ConfigError, parseCount, parsePort } from './values.ts';

export interface SipConfig {
  port: number;
  host: string;
  publicAddress: string;
  realm: string;
  rtpPorts: { min: number; max: number };
  requestsPerMinute: number;
  /** How long an idle TCP connection without a call stays open (30 s when unset; tests lower it). */
  tcpIdleMs?: number;
}

/** The ranges SIP's media must stay out of: the shipped Janus and coturn configurations' (deploy/). */
export const RESERVED_PORT_RANGES = [
  { name: "Janus's rtp_port_range (deploy/janus)", min: 20000, max: 20999 },
  { name: "coturn's relay ports (deploy/coturn)", min: 49160, max: 49999 },
] as const;

const DEFAULT_RTP_PORTS = '30000-30999';
/** Twice a working gateway's redials (30 a minute), so that they always pass. */
const DEFAULT_REQUESTS_PER_MINUTE = 120;

function parseRange(raw: string): { min: number; max: number } {
  const match = /^(\d{1,5})-(\d{1,5})$/.exec(raw.trim());
  const min = Number(match?.[1]);
  const max = Number(match?.[2]);
  if (!match || min < 1024 || max > 65535 || max - min < 1)
    throw new ConfigError(`SIP_RTP_PORTS must be a range of UDP ports such as ${DEFAULT_RTP_PORTS}, not "${raw}"`);
  for (const reserved of RESERVED_PORT_RANGES)
    if (min <= reserved.max && max >= reserved.min)
      throw new ConfigError(
        `SIP_RTP_PORTS ${raw} overlaps ${reserved.name}, ${reserved.min}-${reserved.max}: choose another range`,
      );
  return { min, max };
}

/** This machine's first IPv4 address that is not loopback: what a gateway reaches when SIP binds every address. */
function outsideAddress(): string {
  for (const addresses of Object.values(os.networkInterfaces()))
    for (const address of addresses ?? []) if (address.family === 'IPv4' && !address.internal) return address.address;
  return '127.0.0.1';
}

export function parseSip(env: NodeJS.ProcessEnv): SipConfig | undefined {
  if (env.SIP_PORT === undefined || env.SIP_PORT === '') return undefined;
  const host = env.SIP_HOST || env.HOST || '127.0.0.1';
  const wildcard = host === '0.0.0.0' || host === '::';
  const realm = env.SIP_REALM || 'talkgroup';
  if (!/^[A-Za-z0-9.-]{1,100}$/.test(realm))
    throw new ConfigError(`SIP_REALM must be letters, digits, dots and dashes, not "${realm}"`);
  return {
    port: parsePort(env.SIP_PORT, 'SIP_PORT'),
    host,
    publicAddress: env.SIP_PUBLIC_ADDRESS || (wildcard ? outsideAddress() : host),
    realm,
    rtpPorts: parseRange(env.SIP_RTP_PORTS || DEFAULT_RTP_PORTS),
    requestsPerMinute: parseCount('SIP_REQUESTS_PER_MINUTE', env.SIP_REQUESTS_PER_MINUTE, DEFAULT_REQUESTS_PER_MINUTE),
  };
}
