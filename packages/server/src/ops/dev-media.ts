/**
 * A media server and a TURN server for development and tests, from Debian's packages (janus, coturn): each
 * started with a configuration of its own in a temporary folder, on the ports given, and stopped with the
 * returned function. Production runs them as services with the configurations docs/operators/janus.md and turn.md show.
 *
 *   npm run janus   Janus with deploy/janus/'s configuration: its API on ws://127.0.0.1:8188 (JANUS_WS_PORT), its
 *                   media on UDP 20000-20999 (JANUS_RTP_PORTS), asking for JANUS_API_SECRET (a random one, printed,
 *                   when unset)
 *   npm run turn    coturn with deploy/coturn/'s configuration on 127.0.0.1:3478 (TURN_PORT) with TURN_SECRET (a
 *                   random one, printed, when unset): like the shipped file it relays only to the Internet, unless
 *                   TURN_ALLOW_PEERS names addresses it may relay to as well (`local`: this machine's, for a Janus
 *                   on it)
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, SHARED_SECRET_MIN_LENGTH } from '../config/config.ts';

/** The configuration the project ships (deploy/janus/): production copies it to /etc/janus. */
const SHIPPED_JANUS = path.resolve(import.meta.dirname, '../../../../deploy/janus');
const SHIPPED_COTURN = path.resolve(import.meta.dirname, '../../../../deploy/coturn');
const JANUS_FILES = [
  'janus.jcfg',
  'janus.transport.websockets.jcfg',
  'janus.plugin.audiobridge.jcfg',
  'janus.plugin.streaming.jcfg',
  'janus.plugin.videoroom.jcfg',
];

/**
 * A shipped file with some settings replaced: `key = value` lines (commented or not) take the new value;
 * keys are unique within each of our files.
 */
export function withSettings(text: string, settings: Record<string, string | number | undefined>): string {
  let out = text;
  for (const [key, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    const line = new RegExp(`^(\\s*)#?\\s*${key}\\s*=.*$`, 'm');
    if (!line.test(out)) throw new Error(`no "${key}" setting in the shipped Janus configuration`);
    const rendered = typeof value === 'number' ? String(value) : `"${value}"`;
    out = out.replace(line, (_all, indent: string) => `${indent}${key} = ${rendered}`);
  }
  return out;
}

export interface MediaProcess {
  url: string;
  stop(): Promise<void>;
  /** What it printed (for a failing test's message). */
  output(): string;
  /** Its process id (tests kill it, benchmarks read its CPU time). */
  pid: number;
  /** The secret it asks for (Janus's api_secret and admin keys, coturn's static-auth-secret). */
  secret: string;
  /** How the system schedules it (JanusOptions.realtime). */
  scheduling?: string;
}

/** A random secret for a development server: 64 hexadecimal characters, like `openssl rand -hex 32`. */
export function randomSecret(): string {
  return randomBytes(32).toString('hex');
}

/** A secret given to `npm run janus` or `npm run turn`: long enough and not an example's placeholder. */
export function checkedSecret(name: string, secret: string): string {
  if (secret.length < SHARED_SECRET_MIN_LENGTH || /change-?me/i.test(secret))
    throw new ConfigError(
      `${name} must be a random secret of at least ${SHARED_SECRET_MIN_LENGTH} characters, not "change-me" or a word: make one with "openssl rand -hex 32" (or leave ${name} unset for a random one)`,
    );
  return secret;
}

async function waitForPort(port: number, child: ChildProcess, output: () => string, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}): ${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const probe = createConnection({ port, host: '127.0.0.1' });
      probe.once('connect', () => {
        probe.destroy();
        resolve(true);
      });
      probe.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${what} did not listen on ${port} in time: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function started(command: string, args: string[], folder: string): { child: ChildProcess; output: () => string } {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = '';
  const keep = (chunk: Buffer) => {
    printed = (printed + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  return { child, output: () => printed };
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
}

export interface JanusOptions {
  wsPort: number;
  /** The UDP ports of its media (a range of its own per test server). */
  rtpPorts: [number, number];
  /** Only these interfaces' addresses as ICE candidates (Janus never gives loopback ones). */
  iceInterfaces?: string;
  /** Its api_secret and its plugins' admin_key (JANUS_API_SECRET for the app): a random one when unset. */
  apiSecret?: string;
  debugLevel?: number;
  /**
   * Real-time scheduling (`chrt -r`, a priority from 1 to 99), where this process may give it (root, or
   * CAP_SYS_NICE); otherwise Janus runs as any process. As deploy/janus's systemd drop-in gives it: on a loaded
   * machine, a Janus scheduled like the rest forwarded packets in bursts (up to 200 ms late), and every
   * listener's jitter buffer grew to match (bench:media, docs/benchmarks.md).
   */
  realtime?: number;
}

/** The real-time priority deploy/janus's systemd drop-in gives Janus (CPUSchedulingPriority). */
export const JANUS_REALTIME_PRIORITY = 10;

const allowedPriorities = new Map<number, boolean>();

/** Whether this process may start a child with real-time scheduling at `priority` (asked of `chrt` once). */
export function realtimeAllowed(priority: number): boolean {
  let allowed = allowedPriorities.get(priority);
  if (allowed === undefined) {
    allowed = spawnSync('chrt', ['-r', String(priority), 'true'], { stdio: 'ignore' }).status === 0;
    allowedPriorities.set(priority, allowed);
  }
  return allowed;
}

/**
 * Janus with the shipped configuration (deploy/janus/), on these ports: its WebSocket API on 127.0.0.1 and
 * its media (and the plugins' internal RTP) in `rtpPorts`.
 */
export async function startJanus(options: JanusOptions): Promise<MediaProcess> {
  const secret = options.apiSecret ?? randomSecret();
  const folder = mkdtempSync(path.join(tmpdir(), 'talkgroup-janus-'));
  const range = `${options.rtpPorts[0]}-${options.rtpPorts[1]}`;
  const settings: Record<string, Record<string, string | number | undefined>> = {
    'janus.jcfg': {
      configs_folder: folder,
      debug_level: options.debugLevel ?? 3,
      api_secret: secret,
      rtp_port_range: range,
      ice_enforce_list: options.iceInterfaces,
    },
    'janus.transport.websockets.jcfg': { ws_port: options.wsPort, ws_ip: '127.0.0.1' },
    'janus.plugin.audiobridge.jcfg': { rtp_port_range: range, admin_key: secret },
    'janus.plugin.streaming.jcfg': { rtp_port_range: range, admin_key: secret },
    'janus.plugin.videoroom.jcfg': { admin_key: secret },
  };
  for (const file of JANUS_FILES)
    writeFileSync(
      path.join(folder, file),
      withSettings(readFileSync(path.join(SHIPPED_JANUS, file), 'utf8'), settings[file] ?? {}),
    );
  const janusArgs = ['-F', folder, '-C', path.join(folder, 'janus.jcfg')];
  const realtime = options.realtime !== undefined && realtimeAllowed(options.realtime);
  const { child, output } = realtime
    ? started('chrt', ['-r', String(options.realtime), 'janus', ...janusArgs], folder)
    : started('janus', janusArgs, folder);
  try {
    await waitForPort(options.wsPort, child, output, 'janus');
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url: `ws://127.0.0.1:${options.wsPort}`,
    stop: stopper(child),
    output,
    pid: child.pid ?? 0,
    secret,
    scheduling: realtime ? `real-time (SCHED_RR ${options.realtime})` : 'ordinary',
  };
}

export interface CoturnOptions {
  port: number;
  secret: string;
  /** Its relay ports. */
  relayPorts: [number, number];
  realm?: string;
  /** The address relayed traffic leaves from: one that reaches Janus's candidates (this machine's by default). */
  relayIp?: string;
  /**
   * Development and tests only: peers it may relay to although the shipped file denies their range (this
   * machine's address, where a test's Janus gives its candidates; 127.0.0.1 also allows loopback peers).
   * Never in production: the shipped file relays only to the Internet.
   */
  allowPeers?: string[];
}

/** This machine's first IPv4 address that is not loopback (Janus gives those as its candidates). */
export function hostAddress(): string {
  for (const addresses of Object.values(networkInterfaces()))
    for (const address of addresses ?? []) if (address.family === 'IPv4' && !address.internal) return address.address;
  return '127.0.0.1';
}

/** coturn with the shipped configuration (deploy/coturn/), listening on 127.0.0.1 only, without TLS. */
export async function startCoturn(options: CoturnOptions): Promise<MediaProcess> {
  const folder = mkdtempSync(path.join(tmpdir(), 'talkgroup-turn-'));
  const config = path.join(folder, 'turnserver.conf');
  writeFileSync(config, coturnConfig(options));
  const { child, output } = started('turnserver', ['-c', config, '--log-file', 'stdout'], folder);
  try {
    await waitForPort(options.port, child, output, 'turnserver');
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url: `turn:127.0.0.1:${options.port}`,
    stop: stopper(child),
    output,
    pid: child.pid ?? 0,
    secret: options.secret,
  };
}

/** The shipped turnserver.conf with these ports, addresses and secret (`key=value` lines and flags). */
export function coturnConfig(options: CoturnOptions): string {
  const values: Record<string, string> = {
    'listening-port': String(options.port),
    'listening-ip': '127.0.0.1',
    'relay-ip': options.relayIp ?? hostAddress(),
    'min-port': String(options.relayPorts[0]),
    'max-port': String(options.relayPorts[1]),
    'static-auth-secret': options.secret,
    realm: options.realm ?? 'talkgroup',
  };
  const allowPeers = options.allowPeers ?? [];
  const loopback = allowPeers.some((peer) => /^127\./.test(peer) || peer === '::1');
  const flags = ['no-tls', 'no-dtls', ...(loopback ? ['allow-loopback-peers'] : [])];
  let text = readFileSync(path.join(SHIPPED_COTURN, 'turnserver.conf'), 'utf8');
  for (const [key, value] of Object.entries(values)) {
    const line = new RegExp(`^#?${key}=.*$`, 'm');
    if (!line.test(text)) throw new Error(`no "${key}" setting in the shipped coturn configuration`);
    text = text.replace(line, `${key}=${value}`);
  }
  for (const flag of flags) {
    const line = new RegExp(`^#?${flag}$`, 'm');
    if (!line.test(text)) throw new Error(`no "${flag}" line in the shipped coturn configuration`);
    text = text.replace(line, flag);
  }
  if (allowPeers.length > 0)
    text += `\n# Development and tests only (dev-media.ts, allowPeers): relayed to although denied above.\n${allowPeers
      .map((peer) => `allowed-peer-ip=${peer}`)
      .join('\n')}\n`;
  return text;
}

function portRange(text: string): [number, number] {
  const match = /^(\d+)-(\d+)$/.exec(text.trim());
  const [low, high] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (!match || low < 1024 || high > 65535 || high - low < 10)
    throw new Error(`JANUS_RTP_PORTS must be a range like 20000-20999 (got "${text}")`);
  return [low, high];
}

/** TURN_ALLOW_PEERS: a comma list of addresses, `local` standing for this machine's (127.0.0.1 and its own). */
export function allowedPeers(raw: string | undefined): string[] {
  const peers = (raw ?? '')
    .split(',')
    .map((peer) => peer.trim())
    .filter(Boolean)
    .flatMap((peer) => (peer === 'local' ? ['127.0.0.1', hostAddress()] : [peer]));
  for (const peer of peers)
    if (!/^[0-9a-f.:]+(-[0-9a-f.:]+)?$/i.test(peer))
      throw new ConfigError(`TURN_ALLOW_PEERS must list addresses (or "local"), not "${peer}"`);
  return [...new Set(peers)];
}

async function main(): Promise<void> {
  const which = process.argv[2];
  const given = which === 'turn' ? process.env.TURN_SECRET : process.env.JANUS_API_SECRET;
  const name = which === 'turn' ? 'TURN_SECRET' : 'JANUS_API_SECRET';
  let secret: string;
  try {
    secret = given ? checkedSecret(name, given) : randomSecret();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  const running =
    which === 'turn'
      ? await startCoturn({
          port: Number(process.env.TURN_PORT ?? 3478),
          secret,
          relayPorts: [49160, 49200],
          allowPeers: allowedPeers(process.env.TURN_ALLOW_PEERS),
        })
      : await startJanus({
          wsPort: Number(process.env.JANUS_WS_PORT ?? 8188),
          rtpPorts: portRange(process.env.JANUS_RTP_PORTS ?? '20000-20999'),
          apiSecret: secret,
          realtime: JANUS_REALTIME_PRIORITY,
        });
  console.log(
    `${which === 'turn' ? 'coturn' : 'Janus'} listening: ${running.url}` +
      `${running.scheduling ? `, ${running.scheduling} scheduling` : ''} (Ctrl+C stops it)`,
  );
  if (!given) console.log(`${name}=${secret} (a random one: give Talkgroup the same)`);
  process.on('SIGINT', () => void running.stop().then(() => process.exit(0)));
  process.on('SIGTERM', () => void running.stop().then(() => process.exit(0)));
}

if (import.meta.main) await main();
