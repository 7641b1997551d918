/**
 * A media server and a TURN server for development and tests, from Debian's packages (janus, coturn): each
 * started with a configuration of its own in a temporary folder, on the ports given, and stopped with the
 * returned function. Production runs them as services with the configurations the README shows.
 *
 *   npm run janus   Janus's WebSocket API on ws://127.0.0.1:8188 (JANUS_WS_PORT), AudioBridge only
 *   npm run turn    coturn on 127.0.0.1:3478 (TURN_PORT) with TURN_SECRET (default: dev-turn-secret)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const JANUS_LIBS = '/usr/lib/x86_64-linux-gnu/janus';
/** Every plugin, transport, event handler and logger Debian ships but the AudioBridge and WebSockets. */
const JANUS_UNUSED = {
  plugins: ['duktape', 'echotest', 'lua', 'nosip', 'recordplay', 'sip', 'streaming', 'textroom', 'videocall'],
  morePlugins: ['videoroom', 'voicemail'],
  transports: ['http', 'mqtt', 'nanomsg', 'pfunix', 'rabbitmq'],
  events: ['gelfevh', 'mqttevh', 'nanomsgevh', 'rabbitmqevh', 'sampleevh', 'wsevh'],
};
const so = (names: string[]) => names.map((name) => `libjanus_${name}.so`).join(',');

export interface MediaProcess {
  url: string;
  stop(): Promise<void>;
  /** What it printed (for a failing test's message). */
  output(): string;
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
  /** Only these interfaces' addresses as ICE candidates (tests: "lo"). */
  iceInterfaces?: string;
  apiSecret?: string;
  debugLevel?: number;
}

/** Janus with the AudioBridge and the WebSocket API only, on these ports. */
export async function startJanus(options: JanusOptions): Promise<MediaProcess> {
  const folder = mkdtempSync(path.join(tmpdir(), 'talkgroup-janus-'));
  writeFileSync(
    path.join(folder, 'janus.jcfg'),
    `general: {
  configs_folder = "${folder}"
  plugins_folder = "${JANUS_LIBS}/plugins"
  transports_folder = "${JANUS_LIBS}/transports"
  events_folder = "${JANUS_LIBS}/events"
  loggers_folder = "${JANUS_LIBS}/loggers"
  debug_level = ${options.debugLevel ?? 3}
  ${options.apiSecret ? `api_secret = "${options.apiSecret}"` : ''}
}
media: {
  rtp_port_range = "${options.rtpPorts[0]}-${options.rtpPorts[1]}"
}
nat: {
  nice_debug = false
  ${options.iceInterfaces ? `ice_enforce_list = "${options.iceInterfaces}"` : ''}
}
plugins: {
  disable = "${so([...JANUS_UNUSED.plugins, ...JANUS_UNUSED.morePlugins])}"
}
transports: {
  disable = "${so(JANUS_UNUSED.transports)}"
}
events: {
  broadcast = false
  disable = "${so(JANUS_UNUSED.events)}"
}
loggers: {
  disable = "libjanus_jsonlog.so"
}
`,
  );
  writeFileSync(
    path.join(folder, 'janus.transport.websockets.jcfg'),
    `general: {
  json = "compact"
  ws = true
  ws_port = ${options.wsPort}
  ws_ip = "127.0.0.1"
  wss = false
}
admin: {
  admin_ws = false
  admin_wss = false
}
`,
  );
  writeFileSync(path.join(folder, 'janus.plugin.audiobridge.jcfg'), 'general: { }\n');
  const { child, output } = started('janus', ['-F', folder, '-C', path.join(folder, 'janus.jcfg')], folder);
  try {
    await waitForPort(options.wsPort, child, output, 'janus');
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { url: `ws://127.0.0.1:${options.wsPort}`, stop: stopper(child), output };
}

export interface CoturnOptions {
  port: number;
  secret: string;
  /** Its relay ports. */
  relayPorts: [number, number];
  realm?: string;
  /** Relay to peers on 127.0.0.1 (tests on one machine); never in production. */
  loopback?: boolean;
}

/** coturn with the REST API's shared secret (use-auth-secret), on 127.0.0.1 only. */
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
  return { url: `turn:127.0.0.1:${options.port}`, stop: stopper(child), output };
}

/** The turnserver.conf a deployment needs (the README shows it): time-limited REST credentials only. */
export function coturnConfig(options: CoturnOptions): string {
  return `listening-port=${options.port}
listening-ip=127.0.0.1
relay-ip=127.0.0.1
min-port=${options.relayPorts[0]}
max-port=${options.relayPorts[1]}
use-auth-secret
static-auth-secret=${options.secret}
realm=${options.realm ?? 'talkgroup'}
fingerprint
no-cli
no-tls
no-dtls
no-multicast-peers
${options.loopback ? 'allow-loopback-peers\n' : ''}`;
}

async function main(): Promise<void> {
  const which = process.argv[2];
  const running =
    which === 'turn'
      ? await startCoturn({
          port: Number(process.env.TURN_PORT ?? 3478),
          secret: process.env.TURN_SECRET ?? 'dev-turn-secret',
          relayPorts: [49160, 49200],
          loopback: true,
        })
      : await startJanus({ wsPort: Number(process.env.JANUS_WS_PORT ?? 8188), rtpPorts: [20000, 20999] });
  console.log(`${which === 'turn' ? 'coturn' : 'Janus'} listening: ${running.url} (Ctrl+C stops it)`);
  process.on('SIGINT', () => void running.stop().then(() => process.exit(0)));
  process.on('SIGTERM', () => void running.stop().then(() => process.exit(0)));
}

if (import.meta.main) await main();
