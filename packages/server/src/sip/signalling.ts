/**
 * SIP's signalling for the gateways (issue 51), on SIP.js (OnSIP's SIP stack: its parser, its RFC 3261
 * transaction layer and its dialogs; docs/operators/sip.md says why this one). SIP.js is a user agent written
 * for one connection; a server talks with many peers, so each flow (a UDP address and port, or a TCP connection)
 * gets a user agent core of its own, whose transport sends back on that flow. Nothing here reads a SIP message
 * by hand: datagrams and the TCP stream are cut into messages with SIP.js's parser (on TCP, the header block is
 * parsed first to learn the body's Content-Length).
 *
 * Every input is hostile (issue 57): whatever arrives, it is dropped or answered, and nothing it does leaves the
 * listener. A message whose first line is neither a request line nor a status line, or with more than
 * MAX_HEADER_LINES header lines, is dropped unread; one SIP.js cannot parse is dropped; a request without the
 * headers every request has is answered 400, one for another scheme than sip 416, one past 64 KB (TCP) 413. A
 * user agent core (per-flow state) is made only for a parsed request that passed the rate limit; flows, counted
 * addresses and TCP connections are bounded (MAX_FLOWS, MAX_ADDRESSES, TCP_PER_ADDRESS, TCP_TOTAL), and a TCP
 * connection that completes no message for 30 s while no call uses it is closed.
 *
 * Every request but an ACK is counted per address (SIP_REQUESTS_PER_MINUTE, a sliding minute), retransmissions
 * too once their transaction has ended: past it, an INVITE or a REGISTER gets a 503 with Retry-After, stateless,
 * and anything else is dropped. Requests inside a live call's dialog count on that call's budget instead.
 */
import { randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { Core, URI } from 'sip.js';
import type { Flow, SipTransport } from './flow.ts';
import { kindOf, parse, SlidingWindow, tooManyHeaderLines } from './message-checks.ts';
import { TCP_IDLE_MS, tcpConnections } from './tcp-framing.ts';

export type { Flow, SipTransport };

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
  /** An error that ended the handling of one message (process/faults.ts): counted and logged, never thrown further. */
  fault: (error: unknown, context?: Record<string, unknown>) => void;
  /** How long a TCP connection may go without completing a message while no call uses it (30 s; tests lower it). */
  tcpIdleMs?: number;
}

/** A flow without a call or a message for this long is forgotten (its core disposed): past any transaction's end. */
const IDLE_FLOW_MS = 3 * 60_000;
/** Flows (a user agent core each) and addresses counted by the rate limit, at most. */
const MAX_FLOWS = 20_000;
const MAX_ADDRESSES = 50_000;
/** Requests inside a live call's dialog (INFO keys, re-INVITEs, BYE): at most this many a minute per flow. */
const IN_CALL_PER_MINUTE = 300;
const REQUIRED_HEADERS = ['from', 'to', 'call-id', 'cseq', 'via'] as const;
/** The methods SIP.js's user agent core handles, in a dialog or outside one. */
const SUPPORTED_METHODS = new Set([
  'ACK',
  'BYE',
  'CANCEL',
  'INFO',
  'INVITE',
  'MESSAGE',
  'NOTIFY',
  'OPTIONS',
  'REFER',
  'REGISTER',
  'SUBSCRIBE',
]);

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
  /** Requests inside its calls' dialogs, the last minute's. */
  inCall: SlidingWindow;
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
  const parserLog = loggers.getLogger('sip.parser');
  const flows = new Map<string, FlowState>();
  const tcpSockets = new Map<string, net.Socket>();
  /** Per address: its last minute's requests (a sliding window) and when it was last said to be over its rate. */
  const counts = new Map<string, SlidingWindow>();
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

  /** An answer without a transaction (a refusal, a malformed request's 400): nothing is kept for it. */
  function replyStateless(flow: Flow, message: Core.IncomingRequestMessage, statusCode: number, extra: string[] = []) {
    try {
      const response = Core.constructOutgoingResponse(message, { statusCode, extraHeaders: extra });
      sendOn(flow, response.message).catch(() => {});
    } catch {
      // Not enough of the request to answer it: dropped.
    }
  }

  /** Makes room for one more flow: the one idle the longest without a call is forgotten. */
  function makeRoom(): void {
    if (flows.size < MAX_FLOWS) return;
    let oldest: [string, FlowState] | undefined;
    for (const entry of flows)
      if (entry[1].calls === 0 && !tcpSockets.has(entry[0]) && (!oldest || entry[1].lastSeen < oldest[1].lastSeen))
        oldest = entry;
    if (oldest) {
      oldest[1].core.dispose();
      flows.delete(oldest[0]);
    }
  }

  function stateOf(flow: Flow, port: number): FlowState | undefined {
    const key = keyOf(flow);
    const known = flows.get(key);
    if (known) return known;
    makeRoom();
    if (flows.size >= MAX_FLOWS) return undefined;
    const host = `${options.publicAddress.includes(':') ? `[${options.publicAddress}]` : options.publicAddress}:${port}`;
    const transport: Core.Transport = {
      protocol: flow.transport.toUpperCase(),
      send: (message) => sendOn(flow, message),
    };
    const state: FlowState = {
      flow,
      dialled: 'talkgroup',
      lastSeen: Date.now(),
      calls: 0,
      inCall: new SlidingWindow(),
    } as FlowState;
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

  /**
   * Whether this address may send one more request. Every request counts on its address's window of the last
   * minute, retransmissions too once their transaction has ended (a retransmission of a request whose transaction
   * is still alive is absorbed by it, free); but ACKs (they end a transaction) and requests inside a live call's
   * dialog, which count on the call's own budget instead (IN_CALL_PER_MINUTE).
   */
  function allowed(flow: Flow, message: Core.IncomingRequestMessage, known: FlowState | undefined): boolean {
    if (message.method === 'ACK') return true;
    const branch = message.viaBranch;
    if (known && branch && known.core.userAgentServers.has(branch)) return true;
    const now = Date.now();
    if (known && known.calls > 0 && message.toTag) return known.inCall.take(now, IN_CALL_PER_MINUTE);
    let count = counts.get(flow.ip);
    if (!count) {
      if (counts.size >= MAX_ADDRESSES) return false;
      count = new SlidingWindow();
      counts.set(flow.ip, count);
    }
    if (count.take(now, options.requestsPerMinute)) return true;
    if (now - count.saidAt >= 60_000) {
      count.saidAt = now;
      handlers.limited(flow, message.method, message.ruri?.user ?? '');
    }
    return false;
  }

  /** One message from a flow; a message that is not SIP, or that SIP.js cannot read, is dropped. */
  function receive(text: string, flow: Flow, port: number): void {
    const kind = kindOf(text);
    if (!kind || tooManyHeaderLines(text)) return;
    const message = parse(text, parserLog);
    if (!message) return;
    const known = flows.get(keyOf(flow));
    if (message instanceof Core.IncomingResponseMessage) {
      // We send requests only inside calls (a BYE): a response belongs to a flow we know, or to nothing.
      if (!known) return;
      known.lastSeen = Date.now();
      known.core.receiveIncomingResponseFromTransport(message);
      return;
    }
    if (!(message instanceof Core.IncomingRequestMessage)) return;
    const initial = !message.toTag && (message.method === 'INVITE' || message.method === 'REGISTER');
    if (!allowed(flow, message, known)) {
      if (initial) replyStateless(flow, message, 503, ['Retry-After: 60']);
      return;
    }
    const malformed =
      REQUIRED_HEADERS.some((header) => !message.hasHeader(header)) ||
      !Number.isInteger(message.cseq) ||
      message.cseq < 0;
    if (malformed || (message.ruri?.scheme !== 'sip' && message.ruri?.scheme !== 'sips')) {
      if (message.method !== 'ACK') replyStateless(flow, message, malformed ? 400 : 416);
      return;
    }
    // A method SIP.js's core does not take (PRACK, UPDATE, PUBLISH, anything made up): 501, before the core
    // would throw on it; a CANCEL that matches no INVITE of ours: 481.
    if (!SUPPORTED_METHODS.has(message.method)) {
      replyStateless(flow, message, 501, [`Allow: ${[...SUPPORTED_METHODS].join(', ')}`]);
      return;
    }
    if (message.method === 'CANCEL' && !known?.core.userAgentServers.has(message.viaBranch)) {
      replyStateless(flow, message, 481);
      return;
    }
    // Inside a dialog, only on a flow we know: there is no dialog anywhere else.
    if (message.toTag && !known) {
      if (message.method !== 'ACK') replyStateless(flow, message, 481);
      return;
    }
    const state = known ?? stateOf(flow, port);
    if (!state) {
      if (message.method !== 'ACK') replyStateless(flow, message, 503, ['Retry-After: 10']);
      return;
    }
    state.lastSeen = Date.now();
    // Requests inside a dialog name our Contact; the others pass SIP.js's AOR check whatever user they name (a
    // channel's number, or none at all: a REGISTER names the domain alone, RFC 3261 §10.2) and are answered
    // by gateway-calls.ts, which audits a number that names no channel.
    state.dialled = message.toTag ? 'talkgroup' : message.ruri?.user;
    state.core.receiveIncomingRequestFromTransport(message);
  }

  /** A message, whatever it holds: an error in its handling ends it alone (counted and logged, process/faults.ts). */
  function receiveSafely(text: string, flow: Flow, port: number): void {
    try {
      receive(text, flow, port);
    } catch (error) {
      options.fault(error, { transport: flow.transport, address: flow.ip });
    }
  }

  /** A UDP socket for SIP (a closed one cannot be bound again: a new one for each attempt at a port). */
  function udpSocket(): dgram.Socket {
    const socket = dgram.createSocket(options.host.includes(':') ? 'udp6' : 'udp4');
    socket.on('message', (data, from) => {
      // Keep-alives (a CRLF, RFC 5626) and anything too small to be SIP.
      if (data.length < 20) return;
      receiveSafely(data.toString('utf8'), { transport: 'udp', ip: from.address, port: from.port }, port);
    });
    socket.on('error', (error) => log.error({ err: error }, 'the SIP UDP socket failed'));
    return socket;
  }

  const tcp = net.createServer(
    tcpConnections({
      idleMs: options.tcpIdleMs ?? TCP_IDLE_MS,
      parserLog,
      message: receiveSafely,
      reply: replyStateless,
      inCall: (flow) => (flows.get(keyOf(flow))?.calls ?? 0) > 0,
      opened: (flow, socket) => tcpSockets.set(keyOf(flow), socket),
      closed: (flow) => {
        tcpSockets.delete(keyOf(flow));
        const state = flows.get(keyOf(flow));
        if (state && state.calls === 0) {
          state.core.dispose();
          flows.delete(keyOf(flow));
        }
      },
      fault: options.fault,
      port: () => port,
    }),
  );

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
    for (const [ip, count] of counts) if (count.last < now - 60_000 && count.saidAt < now - 60_000) counts.delete(ip);
  }, 60_000);
  sweep.unref();

  return {
    port,
    /** A call began or ended on this flow (a flow with calls is never forgotten). */
    /** How much this instance holds now: flows (a core each), addresses counted, TCP connections (tests). */
    held: () => ({ flows: flows.size, addresses: counts.size, tcp: tcpSockets.size }),
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
