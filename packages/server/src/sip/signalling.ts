/**
 * SIP's signalling for the gateways (issue 51), on SIP.js (OnSIP's SIP stack: its parser, its RFC 3261
 * transaction layer and its dialogs; docs/operators/sip.md says why this one). SIP.js is a user agent written
 * for one connection; a server talks with many peers, so each flow (a UDP address and port, or a TCP connection)
 * gets a user agent core of its own, whose transport sends back on that flow. Nothing here reads a SIP message
 * by hand: datagrams and the TCP stream are cut into messages with SIP.js's parser (on TCP, the header block is
 * parsed first to learn the body's Content-Length).
 *
 * Before a message reaches a core, INVITEs and REGISTERs are counted per address: past SIP_REQUESTS_PER_MINUTE
 * the address gets a 503 with Retry-After, stateless, and nothing else is done for it.
 */
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { Core, URI } from 'sip.js';

export type SipTransport = 'udp' | 'tcp';

export interface Flow {
  transport: SipTransport;
  ip: string;
  port: number;
}

export interface SipHandlers {
  invite(request: Core.IncomingInviteRequest, flow: Flow): void;
  register(request: Core.IncomingRegisterRequest, flow: Flow): void;
  /** An address went past its rate (said once a minute per address). */
  limited(flow: Flow, method: string, number: string): void;
}

export interface SignallingOptions {
  host: string;
  port: number;
  publicAddress: string;
  requestsPerMinute: number;
  log: FastifyBaseLogger;
}

/** A flow without a call or a message for this long is forgotten (its core disposed). */
const IDLE_FLOW_MS = 10 * 60_000;
const MAX_TCP_MESSAGE = 64 * 1024;

interface FlowState {
  flow: Flow;
  core: Core.UserAgentCore;
  /**
   * The dialled user of the request being handed to the core (the core accepts requests for its AOR only):
   * undefined for a Request-URI without a user, as a REGISTER's is (it names the domain, RFC 3261 §10.2).
   */
  dialled: string | undefined;
  lastSeen: number;
  calls: number;
}

/** SIP.js's log, into ours (its debug lines are very many: debug only). */
function loggerFactory(log: FastifyBaseLogger): Core.LoggerFactory {
  const factory = new Core.LoggerFactory();
  factory.builtinEnabled = false;
  factory.level = Core.Levels.warn;
  factory.connector = (level, category, _label, content) => {
    const line = { sip: category };
    if (level === 'error') log.error(line, String(content));
    else if (level === 'warn') log.debug(line, String(content));
  };
  return factory;
}

export async function startSignalling(options: SignallingOptions, handlers: SipHandlers) {
  const { log } = options;
  const loggers = loggerFactory(log);
  const flows = new Map<string, FlowState>();
  const tcpSockets = new Map<string, net.Socket>();
  /**
   * Per address: when its last INVITEs and REGISTERs came (the last minute's, a sliding window), their Via
   * branches (a retransmission of a request already counted is not counted again: UDP resends a request whose
   * answer was lost), and when it was last said to be over its rate.
   */
  const counts = new Map<string, { times: number[]; branches: Set<string>; saidAt: number }>();
  let udp = udpSocket();
  const keyOf = (flow: Flow) => `${flow.transport}:${flow.ip}:${flow.port}`;

  function sendOn(flow: Flow, message: string): Promise<void> {
    if (flow.transport === 'udp')
      return new Promise((resolve, reject) =>
        udp.send(message, flow.port, flow.ip, (error) => (error ? reject(error) : resolve())),
      );
    const socket = tcpSockets.get(keyOf(flow));
    if (!socket || socket.destroyed) return Promise.reject(new Error('the TCP connection of this flow is closed'));
    socket.write(message);
    return Promise.resolve();
  }

  function stateOf(flow: Flow, port: number): FlowState {
    const key = keyOf(flow);
    const known = flows.get(key);
    if (known) return known;
    const host = `${options.publicAddress.includes(':') ? `[${options.publicAddress}]` : options.publicAddress}:${port}`;
    const transport: Core.Transport = {
      protocol: flow.transport.toUpperCase(),
      send: (message) => sendOn(flow, message),
    };
    const state: FlowState = { flow, dialled: 'talkgroup', lastSeen: Date.now(), calls: 0 } as FlowState;
    const contact = new URI('sip', 'talkgroup', options.publicAddress, port, { transport: flow.transport });
    state.core = new Core.UserAgentCore(
      {
        get aor() {
          // SIP.js types a URI's user as a string, but builds URIs without one (`sip:host`) and compares them so.
          return new URI('sip', state.dialled as string, options.publicAddress, port);
        },
        contact: { pubGruu: undefined, tempGruu: undefined, uri: contact, toString: () => `<${contact.toString()}>` },
        displayName: 'Talkgroup',
        loggerFactory: loggers,
        hackViaTcp: false,
        routeSet: [],
        sipjsId: randomBytes(3).toString('hex'),
        supportedOptionTags: [],
        supportedOptionTagsResponse: [],
        userAgentHeaderFieldValue: 'Talkgroup',
        viaForceRport: true,
        viaHost: host,
        authenticationFactory: () => undefined,
        transportAccessor: () => transport,
      },
      {
        onInvite: (request) => handlers.invite(request, flow),
        onRegister: (request) => handlers.register(request, flow),
        onMessage: (request) => request.reject({ statusCode: 405 }),
        onSubscribe: (request) => request.reject({ statusCode: 489 }),
        onNotify: (request) => request.reject({ statusCode: 405 }),
        onRefer: (request) => request.reject({ statusCode: 405 }),
      },
    );
    flows.set(key, state);
    return state;
  }

  /** Whether this address may send one more INVITE or REGISTER: fewer than the rate within the last minute. */
  function allowed(flow: Flow, message: Core.IncomingRequestMessage, number: string): boolean {
    const now = Date.now();
    let count = counts.get(flow.ip);
    if (!count) {
      count = { times: [], branches: new Set(), saidAt: 0 };
      counts.set(flow.ip, count);
    }
    while (count.times.length > 0 && now - count.times[0] >= 60_000) count.times.shift();
    if (count.times.length === 0) count.branches.clear();
    const branch = message.viaBranch;
    if (branch && count.branches.has(branch)) return true;
    if (count.times.length < options.requestsPerMinute) {
      count.times.push(now);
      if (branch) count.branches.add(branch);
      return true;
    }
    if (now - count.saidAt >= 60_000) {
      count.saidAt = now;
      handlers.limited(flow, message.method, number);
    }
    return false;
  }

  function receive(text: string, flow: Flow, port: number): void {
    const message = Core.Parser.parseMessage(text, loggers.getLogger('sip.parser'));
    if (!message) return;
    const state = stateOf(flow, port);
    state.lastSeen = Date.now();
    if (message instanceof Core.IncomingRequestMessage) {
      for (const header of ['from', 'to', 'call-id', 'cseq', 'via']) if (!message.hasHeader(header)) return;
      const number = message.ruri?.user ?? '';
      const initial = !message.toTag && (message.method === 'INVITE' || message.method === 'REGISTER');
      if (initial && !allowed(flow, message, number)) {
        state.core.replyStateless(message, { statusCode: 503, extraHeaders: ['Retry-After: 60'] });
        return;
      }
      // Requests inside a dialog name our Contact; the others pass SIP.js's AOR check whatever user they name (a
      // channel's number, or none at all: a REGISTER names the domain alone, RFC 3261 §10.2) and are answered
      // by gateway-calls.ts, which audits a number that names no channel.
      state.dialled = message.toTag ? 'talkgroup' : message.ruri?.user;
      try {
        state.core.receiveIncomingRequestFromTransport(message);
      } catch (error) {
        log.warn({ err: error, sip: message.method }, 'a SIP request could not be handled');
      }
    } else if (message instanceof Core.IncomingResponseMessage)
      state.core.receiveIncomingResponseFromTransport(message);
  }

  /** A UDP socket for SIP (a closed one cannot be bound again: a new one for each attempt at a port). */
  function udpSocket(): dgram.Socket {
    const socket = dgram.createSocket(options.host.includes(':') ? 'udp6' : 'udp4');
    socket.on('message', (data, from) => {
      // Keep-alives (a CRLF, RFC 5626) and anything too small to be SIP.
      if (data.length < 20) return;
      receive(data.toString('utf8'), { transport: 'udp', ip: from.address, port: from.port }, port);
    });
    socket.on('error', (error) => log.error({ err: error }, 'the SIP UDP socket failed'));
    return socket;
  }

  const tcp = net.createServer((socket) => {
    const flow: Flow = { transport: 'tcp', ip: socket.remoteAddress ?? '', port: socket.remotePort ?? 0 };
    tcpSockets.set(keyOf(flow), socket);
    let pending = Buffer.alloc(0);
    socket.setNoDelay(true);
    socket.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        // CRLF keep-alives between messages.
        let start = 0;
        while (start + 1 < pending.length && pending[start] === 13 && pending[start + 1] === 10) start += 2;
        if (start > 0) pending = pending.subarray(start);
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) {
          if (pending.length > MAX_TCP_MESSAGE) socket.destroy();
          return;
        }
        const head = Core.Parser.parseMessage(pending.subarray(0, end + 4).toString('utf8'), loggers.getLogger('sip'));
        if (!head) {
          socket.destroy();
          return;
        }
        const length = Number(head.getHeader('content-length') ?? 0);
        if (!Number.isInteger(length) || length < 0 || length > MAX_TCP_MESSAGE) {
          socket.destroy();
          return;
        }
        if (pending.length < end + 4 + length) return;
        const whole = pending.subarray(0, end + 4 + length).toString('utf8');
        pending = pending.subarray(end + 4 + length);
        receive(whole, flow, port);
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      tcpSockets.delete(keyOf(flow));
      const state = flows.get(keyOf(flow));
      if (state && state.calls === 0) {
        state.core.dispose();
        flows.delete(keyOf(flow));
      }
    });
  });

  // The same port for UDP and TCP; with SIP_PORT=0 (tests) the UDP port is chosen first and TCP takes it too.
  let port = options.port;
  for (let attempt = 0; ; attempt++) {
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind({ port, address: options.host }, () => {
        udp.off('error', reject);
        resolve();
      });
    });
    port = udp.address().port;
    const listening = await new Promise<boolean>((resolve, reject) => {
      tcp.once('error', (error: NodeJS.ErrnoException) =>
        error.code === 'EADDRINUSE' && options.port === 0 && attempt < 5 ? resolve(false) : reject(error),
      );
      tcp.listen({ port, host: options.host }, () => resolve(true));
    });
    if (listening) break;
    await new Promise<void>((resolve) => udp.close(() => resolve()));
    udp = udpSocket();
    port = 0;
  }

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, state] of flows)
      if (state.calls === 0 && now - state.lastSeen > IDLE_FLOW_MS && !tcpSockets.has(key)) {
        state.core.dispose();
        flows.delete(key);
      }
    for (const [ip, count] of counts)
      if ((count.times.at(-1) ?? 0) < now - 60_000 && count.saidAt < now - 60_000) counts.delete(ip);
  }, 60_000);
  sweep.unref();

  return {
    port,
    /** A call began or ended on this flow (a flow with calls is never forgotten). */
    track(flow: Flow, delta: 1 | -1): void {
      const state = flows.get(keyOf(flow));
      if (state) state.calls = Math.max(0, state.calls + delta);
    },
    async stop(): Promise<void> {
      clearInterval(sweep);
      for (const state of flows.values()) state.core.dispose();
      flows.clear();
      for (const socket of tcpSockets.values()) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
}

export type Signalling = Awaited<ReturnType<typeof startSignalling>>;
