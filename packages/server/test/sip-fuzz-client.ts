/**
 * The SIP fuzzer's well-formed side (sip-fuzz.test.ts): a raw UDP client that sends bytes as they are and keeps the
 * server's responses, the requests it writes as a gateway would, the probe that asks a server under fuzz whether it
 * still answers (an OPTIONS, and GET /healthz), and an authenticated call (a real digest answer to a real challenge)
 * with whatever offer a case gives it.
 */
import dgram from 'node:dgram';
import { Core } from 'sip.js';
import { expect } from 'vitest';
import { authorization, type Response, token } from './raw-sip.ts';
import { FUZZ_LOGIN, type Victim, whileAlive } from './sip-fuzz-harness.ts';

const sipLoggers = new Core.LoggerFactory();
sipLoggers.builtinEnabled = false;
const sipLogger = sipLoggers.getLogger('sip-fuzz');

/** A raw SIP client over UDP: sends bytes as they are, and keeps every response the server sends back. */
export class RawUdp {
  readonly responses: Response[] = [];
  #waiters = new Set<() => void>();
  received = 0;

  readonly socket: dgram.Socket;
  readonly port: number;
  readonly server: number;

  private constructor(socket: dgram.Socket, port: number, server: number) {
    this.socket = socket;
    this.port = port;
    this.server = server;
    socket.on('message', (data) => {
      this.received++;
      let message: unknown;
      try {
        message = Core.Parser.parseMessage(data.toString('utf8'), sipLogger);
      } catch {
        return;
      }
      if (!(message instanceof Core.IncomingResponseMessage)) return;
      this.responses.push(message);
      if (this.responses.length > 200) this.responses.splice(0, 100);
      for (const wake of [...this.#waiters]) wake();
    });
  }

  /** A socket on `host`: the probes use 127.0.0.2, an address of their own that the fuzz never uses up. */
  static async open(server: number, host = '127.0.0.1'): Promise<RawUdp> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, host, resolve));
    return new RawUdp(socket, socket.address().port, server);
  }

  #closed = false;

  /** Sends a datagram (nothing once closed: a retransmission timer may outlive a failed wait). */
  send(bytes: Buffer | string): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => this.socket.send(bytes, this.server, '127.0.0.1', () => resolve()));
  }

  /** The first response to the request of this Call-ID (and CSeq), final unless `provisional`. */
  response(callId: string, cseq?: number, provisional = false): Promise<Response> {
    return new Promise((resolve) => {
      const check = () => {
        const found = this.responses.find(
          (message) =>
            message.callId === callId &&
            (cseq === undefined || message.cseq === cseq) &&
            (provisional || (message.statusCode ?? 0) >= 200),
        );
        if (!found) return;
        this.#waiters.delete(check);
        resolve(found);
      };
      this.#waiters.add(check);
      check();
    });
  }

  close(): void {
    this.#closed = true;
    this.socket.close();
  }
}

/** A request as a gateway writes it (Via with a new branch, tags, Contact), over UDP from `sip`'s port. */
function request(
  sip: RawUdp,
  fields: {
    method: string;
    uri: string;
    callId: string;
    cseq: number;
    fromTag: string;
    toTag?: string;
    to?: string;
    branch?: string;
    headers?: string[];
    body?: string;
    login?: string;
  },
): { text: string; branch: string } {
  const branch = fields.branch ?? `z9hG4bK${token()}`;
  const login = fields.login ?? FUZZ_LOGIN;
  const body = fields.body ?? '';
  const to = fields.to ?? `<${fields.uri.replace(/;.*$/, '')}>`;
  const lines = [
    `${fields.method} ${fields.uri} SIP/2.0`,
    `Via: SIP/2.0/UDP ${sip.socket.address().address}:${sip.port};branch=${branch};rport`,
    'Max-Forwards: 70',
    `From: <sip:${login}@127.0.0.1>;tag=${fields.fromTag}`,
    `To: ${to}${fields.toTag ? `;tag=${fields.toTag}` : ''}`,
    `Call-ID: ${fields.callId}`,
    `CSeq: ${fields.cseq} ${fields.method}`,
    `Contact: <sip:${login}@127.0.0.1:${sip.port}>`,
    ...(fields.headers ?? []),
    ...(body ? ['Content-Type: application/sdp'] : []),
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ];
  return { text: lines.join('\r\n'), branch };
}

/**
 * The loopback address the probes send from: the rate limit counts requests per address (every method, at the
 * default 120 a minute), and the fuzz's own address is over it, its OPTIONS dropped unanswered.
 */
export const PROBE_HOST = '127.0.0.2';

/** How many probes there have been: GET /healthz is asked at every fifth (an OPTIONS at each). */
let probes = 0;

/** The process answers: an OPTIONS over UDP gets a SIP answer (any status), and GET /healthz a 200. */
export async function assertAnswers(
  victim: Victim,
  probe: RawUdp,
  context = () => '',
  health = false,
): Promise<number> {
  const callId = `probe-${token()}`;
  const { text } = request(probe, {
    method: 'OPTIONS',
    uri: `sip:127.0.0.1:${victim.sipPort}`,
    callId,
    cseq: 1,
    fromTag: token(),
  });
  const answered = probe.response(callId);
  // UDP may lose a datagram on a loaded machine: the same request again each second (a retransmission).
  const again = setInterval(() => void probe.send(text), 1000);
  try {
    await probe.send(text);
    const answer = await whileAlive(victim, answered, `the ${victim.name} server's answer to an OPTIONS`, context);
    if (health || probes++ % 5 === 0) {
      const answer = await whileAlive(victim, fetch(`${victim.server.base}/healthz`), 'GET /healthz', context);
      expect(answer.status).toBe(200);
    }
    return answer.statusCode ?? 0;
  } finally {
    clearInterval(again);
  }
}

/** Sends a request until `answered` settles: once, then again each second (UDP's retransmission, RFC 3261 §17.1.1.2). */
async function untilAnswered<T>(sip: RawUdp, text: string, answered: Promise<T>): Promise<T> {
  const again = setInterval(() => void sip.send(text), 1000);
  try {
    await sip.send(text);
    return await answered;
  } finally {
    clearInterval(again);
  }
}

/**
 * An authenticated INVITE with this offer (challenged first, as a gateway is); the final answer, ACKed. A call
 * answered 200 is hung up with a BYE unless `keep`.
 */
export async function authenticatedCall(
  victim: Victim,
  sip: RawUdp,
  number: string,
  secret: string,
  body: string,
  context: () => string,
): Promise<{ status: number; answer: Response; bye: () => Promise<number> }> {
  const uri = `sip:${number}@127.0.0.1:${victim.sipPort}`;
  const callId = `fuzz-${token()}`;
  const fromTag = token();
  const first = request(sip, { method: 'INVITE', uri, callId, cseq: 1, fromTag, body });
  const challenge = await whileAlive(
    victim,
    untilAnswered(sip, first.text, sip.response(callId, 1)),
    'the challenge of an INVITE',
    context,
  );
  await sip.send(
    request(sip, { method: 'ACK', uri, callId, cseq: 1, fromTag, toTag: challenge.toTag, branch: first.branch }).text,
  );
  expect(challenge.statusCode).toBe(401);
  const second = request(sip, {
    method: 'INVITE',
    uri,
    callId,
    cseq: 2,
    fromTag,
    headers: [authorization(challenge, 'INVITE', uri, secret, undefined, FUZZ_LOGIN)],
    body,
  });
  const answer = await whileAlive(
    victim,
    untilAnswered(sip, second.text, sip.response(callId, 2)),
    'the answer to an authenticated INVITE',
    context,
  );
  const status = answer.statusCode ?? 0;
  if (status >= 300) {
    await sip.send(
      request(sip, { method: 'ACK', uri, callId, cseq: 2, fromTag, toTag: answer.toTag, branch: second.branch }).text,
    );
    return { status, answer, bye: async () => 0 };
  }
  // The ACK of a 2xx is a transaction of its own, sent to the Contact.
  const contact = /<([^>]+)>/.exec(answer.getHeader('contact') ?? '')?.[1] ?? uri;
  const dialog = { uri: contact, callId, fromTag, toTag: answer.toTag, to: `<${uri}>` };
  await sip.send(request(sip, { method: 'ACK', cseq: 2, ...dialog }).text);
  return {
    status,
    answer,
    async bye() {
      const text = request(sip, { method: 'BYE', cseq: 3, ...dialog }).text;
      const ended = await whileAlive(
        victim,
        untilAnswered(sip, text, sip.response(callId, 3)),
        'the answer to a BYE',
        context,
      );
      return ended.statusCode ?? 0;
    },
  };
}
