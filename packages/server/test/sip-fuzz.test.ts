/**
 * The SIP fuzzer (issue 57, item 7): nothing anyone sends to the SIP port or to a call's relay port ends the
 * server. The server runs as `npm start` runs it, in a process of its own (process-harness.ts), with Debian's
 * Janus behind it, so that "the process keeps running" is what is checked: an exception thrown out of a listener
 * ends that process, and the test sees it exit.
 *
 * - Over UDP: a few thousand mutations (sip-mutations.ts) of real INVITE, REGISTER, ACK, BYE, OPTIONS, CANCEL and
 *   INFO requests and of responses: truncated, oversized (datagrams up to ~60 KB), binary, NUL bytes and unicode,
 *   headers removed, doubled or garbage (CSeq `x`, Via without branch, Content-Length negative, huge, not a number
 *   or wrong), bad start lines and Request-URIs, thousands of header lines, offers with impossible ports and
 *   addresses; the issue's `SIP/2.0 200 OK\r\nCSeq: x\r\n\r\n` first. Sent in batches, each followed by an
 *   OPTIONS that must be answered (so that the fuzzer waits for the server, and measures it, not its buffers).
 * - Over TCP: hundreds of those, several per connection, split across writes, connections cut mid-message,
 *   messages past 64 KB.
 * - Authenticated INVITEs (a real digest answer to a real challenge) whose offer is mutated: port 0, 99999,
 *   65536, -1, not a number, a hostname, no m= line, a huge payload list...: each is answered, and an answered
 *   call is hung up.
 * - A live call's relay port: RTP-shaped datagrams (oversized, unknown payload types, short telephone events,
 *   lengths past the end) and random ones.
 * - A second server at the default SIP_REQUESTS_PER_MINUTE (120): the rate limit's 503 path gets the mutations
 *   too (the first server's limit is high, so that the fuzz reaches the parser and the call code, not the 503).
 * - After each part the process is alive, answers GET /healthz and an OPTIONS over UDP; at the end Debian's
 *   baresip dials a channel, is answered, gets the channel's audio and hangs up cleanly.
 *
 * The inputs come from a seeded PRNG: SIP_FUZZ_SEED=<number> replays a run, SIP_FUZZ_SEED=random tries a new one;
 * an input that ends the process is kept, the process started again (SIP_FUZZ_RESTARTS times a part) and the batch
 * sent again case by case, so that a failure names the seed and each input that crashed it, with its stack.
 * SIP_FUZZ_UDP, SIP_FUZZ_TCP (connections), SIP_FUZZ_RTP and SIP_FUZZ_DEFAULT_RATE set how many of each.
 */
import { createHash, randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseAuth } from 'auth-header';
import { Core } from 'sip.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { baresipAvailable, startBaresip } from './baresip.ts';
import { portBlock, type TestJanus, testJanus } from './janus-harness.ts';
import { exited, freePort, outputOf, post, type ServerProcess, startServer } from './process-harness.ts';
import {
  describeCase,
  type FuzzCase,
  fuzzCase,
  fuzzSeed,
  Prng,
  rtpCase,
  SDP_CASE_COUNT,
  sdpCase,
  type Target,
} from './sip-mutations.ts';

const SEED = fuzzSeed();
const UDP_CASES = Number(process.env.SIP_FUZZ_UDP ?? 2000);
const TCP_CONNECTIONS = Number(process.env.SIP_FUZZ_TCP ?? 120);
const RTP_CASES = Number(process.env.SIP_FUZZ_RTP ?? 1000);
const DEFAULT_RATE_CASES = Number(process.env.SIP_FUZZ_DEFAULT_RATE ?? 400);
/** A batch ends at this many cases or bytes; then an OPTIONS must be answered before the next. */
const BATCH_CASES = 40;
const BATCH_BYTES = 120_000;
/** Bounds of each wait (a loaded 2-core CI): an answer, a call's set-up. */
const WAIT_MS = 30_000;
/** Each part's bound: its waits are bounded, this is for a machine far busier than CI. */
const PART_MS = 240_000;
const ADMIN = { login: 'boss@example.org', password: 'boss-password-1' };
const FUZZ_LOGIN = 'radio-fuzz';
const PHONE_LOGIN = 'radio-quai';

const available = baresipAvailable();
const token = () => randomBytes(6).toString('hex');
const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/** An input that ended the server process: what was sent, in which part, and the process's last words. */
interface Crash {
  part: string;
  input: string;
  cause: string;
}

/**
 * A server process under fuzz. When an input ends it, the crash is kept, the process is started again on the same
 * data and SIP port (at most MAX_RESTARTS times), and the fuzz goes on: one run names every input that crashes.
 */
interface Victim {
  name: string;
  env: Record<string, string>;
  server: ServerProcess;
  sipPort: number;
  dir: string;
  /** Resolves when the current process exits (never, while it is well). */
  death: Promise<string>;
  crashes: Crash[];
  restarts: number;
}

const MAX_RESTARTS = Number(process.env.SIP_FUZZ_RESTARTS ?? 6);

/** The process ended while the test waited on it. */
class ServerDied extends Error {
  /** What the process printed as it died. */
  readonly why: string;

  constructor(message: string, why: string) {
    super(message);
    this.why = why;
  }
}

async function launch(victim: Pick<Victim, 'name' | 'env' | 'sipPort' | 'dir'>) {
  const [min, max] = portBlock(100);
  const server = await startServer({
    DATA_DIR: victim.dir,
    SIP_PORT: String(victim.sipPort),
    SIP_HOST: '127.0.0.1',
    SIP_PUBLIC_ADDRESS: '127.0.0.1',
    SIP_RTP_PORTS: `${min}-${max}`,
    ADMIN_LOGIN: ADMIN.login,
    ADMIN_PASSWORD: ADMIN.password,
    ...victim.env,
  });
  const death = exited(server.child).then(({ code, signal }) => {
    const output = outputOf(server.child);
    // What it printed after its last log line: the uncaught exception and its stack.
    const lines = output.split('\n');
    const last = lines.findLastIndex((line) => line.startsWith('{'));
    const words =
      lines
        .slice(last + 1)
        .join('\n')
        .trim() || output.slice(-1500);
    return `exited (code ${code}, signal ${signal}):\n${words.slice(0, 2500)}`;
  });
  return { server, death };
}

async function startVictim(name: string, env: Record<string, string>): Promise<Victim> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tg-sip-fuzz-'));
  const sipPort = await freeSipPort();
  const { server, death } = await launch({ name, env, sipPort, dir });
  return { name, env, server, sipPort, dir, death, crashes: [], restarts: 0 };
}

/** Each part starts on a live process (one an earlier part left dead is started again), with its own restarts. */
async function revive(victim: Victim): Promise<void> {
  victim.restarts = 0;
  if (victim.server.child.exitCode === null && victim.server.child.signalCode === null) return;
  Object.assign(victim, await launch(victim));
}

/** Keeps the crash and starts the process again, or throws when it has been restarted too often. */
async function recover(victim: Victim, error: unknown, part: string, input: string): Promise<void> {
  if (!(error instanceof ServerDied)) throw error;
  victim.crashes.push({ part, input, cause: error.why });
  if (victim.restarts >= MAX_RESTARTS)
    throw new Error(`${error.message}\n\n${crashReport(victim, part)}\n(and no more restarts: SIP_FUZZ_RESTARTS)`);
  victim.restarts++;
  await exited(victim.server.child);
  Object.assign(victim, await launch(victim));
}

function crashReport(victim: Victim, part?: string): string {
  const crashes = victim.crashes.filter((crash) => part === undefined || crash.part.startsWith(part));
  return `${crashes.length} input(s) ended the ${victim.name} server process (seed ${SEED}, SIP_FUZZ_SEED replays it):\n${crashes
    .map((crash) => `--- ${crash.part}: ${crash.input}\n${crash.cause}`)
    .join('\n')}`;
}

/** The server's last log lines but SIP.js's parser's (the fuzz makes very many of those). */
function lastLines(victim: Victim): string {
  const lines = outputOf(victim.server.child)
    .split('\n')
    .filter((line) => !line.includes('"sip.parser"'));
  return lines.slice(-12).join('\n').slice(-3000);
}

/** Fails with every crash of this part (all parts: none given), each with its input and the process's last words. */
function noCrashes(victim: Victim, part?: string): void {
  const crashes = victim.crashes.filter((crash) => part === undefined || crash.part.startsWith(part));
  if (crashes.length > 0) throw new Error(crashReport(victim, part));
}

/** A port free for TCP and for UDP at once (SIP listens on both). */
async function freeSipPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    const socket = dgram.createSocket('udp4');
    const free = await new Promise<boolean>((resolve) => {
      socket.once('error', () => resolve(false));
      socket.bind(port, '127.0.0.1', () => resolve(true));
    });
    socket.close();
    if (free) return port;
  }
}

/** Rejects with ServerDied if the process ends before `work` is done, or with an Error past the bound. */
async function whileAlive<T>(victim: Victim, work: Promise<T>, what: string, context = () => ''): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `${what}: no answer within ${WAIT_MS} ms (seed ${SEED})${context()}\nthe server's last lines:\n${lastLines(victim)}`,
          ),
        ),
      WAIT_MS,
    );
  });
  const died = victim.death.then((why) =>
    Promise.reject(
      new ServerDied(
        `${what}: the ${victim.name} server process ${why}${context()}\nseed ${SEED} (SIP_FUZZ_SEED)`,
        why,
      ),
    ),
  );
  try {
    return await Promise.race([work, bound, died]);
  } finally {
    clearTimeout(timer);
  }
}

type Response = Core.IncomingResponseMessage;
const sipLoggers = new Core.LoggerFactory();
sipLoggers.builtinEnabled = false;
const sipLogger = sipLoggers.getLogger('sip-fuzz');

/** A raw SIP client over UDP: sends bytes as they are, and keeps every response the server sends back. */
class RawUdp {
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
const PROBE_HOST = '127.0.0.2';

/** How many probes there have been: GET /healthz is asked at every fifth (an OPTIONS at each). */
let probes = 0;

/** The process answers: an OPTIONS over UDP gets a SIP answer (any status), and GET /healthz a 200. */
async function assertAnswers(victim: Victim, probe: RawUdp, context = () => '', health = false): Promise<number> {
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

async function signIn(victim: Victim): Promise<string> {
  const login = await post(victim.server.base, '/user/api/login', {
    user_email: ADMIN.login,
    user_password: ADMIN.password,
  });
  expect(login.status).toBe(200);
  return login.body.user.authToken as string;
}

/**
 * The UDP fuzz against one server: `count` cases from `rng`, in batches each closed by an answered OPTIONS. A batch
 * that ends the process is sent again case by case to a new one, so that the crash names its input.
 */
async function fuzzUdp(victim: Victim, rng: Prng, count: number, number: string): Promise<number> {
  const part = `UDP (${victim.name})`;
  const fuzzer = await RawUdp.open(victim.sipPort);
  const probe = await RawUdp.open(victim.sipPort, PROBE_HOST);
  const target: Target = { server: victim.sipPort, local: fuzzer.port, number, login: FUZZ_LOGIN, transport: 'UDP' };
  let batch: Array<[number, FuzzCase]> = [];
  let bytes = 0;
  try {
    for (let index = 0; index < count; index++) {
      const fuzz = fuzzCase(rng, target, index);
      // A datagram carries at most 65,507 bytes over IPv4.
      if (fuzz.bytes.length > 65_000) fuzz.bytes = fuzz.bytes.subarray(0, 65_000);
      batch.push([index, fuzz]);
      bytes += fuzz.bytes.length;
      await fuzzer.send(fuzz.bytes);
      if (batch.length < BATCH_CASES && bytes < BATCH_BYTES && index < count - 1) continue;
      try {
        await assertAnswers(victim, probe);
      } catch (error) {
        await recover(
          victim,
          error,
          part,
          'a batch (its cases sent again one by one, below, while restarts were left)',
        );
        const found = victim.crashes.length;
        for (const [at, one] of batch) {
          await fuzzer.send(one.bytes);
          await assertAnswers(victim, probe).catch((died) => recover(victim, died, part, describeCase(at, one)));
        }
        // Found alone, the batch's line goes; else the batch as a whole is the input.
        if (victim.crashes.length > found) victim.crashes.splice(found - 1, 1);
        else {
          const crash = victim.crashes[found - 1];
          if (crash) crash.input = `the batch together:\n${batch.map(([at, one]) => describeCase(at, one)).join('\n')}`;
        }
      }
      batch = [];
      bytes = 0;
    }
    return fuzzer.received;
  } finally {
    fuzzer.close();
    probe.close();
  }
}

/** One TCP connection: its cases written in pieces, then closed, or cut in the middle of the last one. */
async function fuzzConnection(victim: Victim, rng: Prng, cases: FuzzCase[], cut: boolean): Promise<void> {
  const socket = net.connect(victim.sipPort, '127.0.0.1');
  socket.on('error', () => {});
  socket.on('data', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const connected = await Promise.race([
    new Promise<boolean>((resolve) => socket.once('connect', () => resolve(true))),
    closed.then(() => false),
  ]);
  if (!connected) return;
  const write = (piece: Buffer) =>
    new Promise<void>((resolve) => {
      if (socket.destroyed) resolve();
      else socket.write(piece, () => resolve());
    });
  try {
    for (const [n, fuzz] of cases.entries()) {
      let bytes = fuzz.bytes;
      if (cut && n === cases.length - 1) bytes = bytes.subarray(0, rng.int(bytes.length));
      // The message in one to four writes, cut anywhere: TCP owes the reader no message boundaries.
      const pieces = rng.between(1, 4);
      let at = 0;
      for (let piece = 1; piece <= pieces && !socket.destroyed; piece++) {
        const end = piece === pieces ? bytes.length : rng.between(at, bytes.length);
        await write(bytes.subarray(at, end));
        at = end;
        if (rng.chance(0.3)) await new Promise((resolve) => setImmediate(resolve));
      }
    }
    if (cut) socket.destroy();
    else socket.end();
    // The server closes its side once it has read ours (or before, on a message it will not read).
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2_000))]);
  } finally {
    socket.destroy();
  }
}

async function fuzzTcp(victim: Victim, rng: Prng, connections: number, number: string): Promise<void> {
  const part = 'TCP';
  const probe = await RawUdp.open(victim.sipPort, PROBE_HOST);
  let index = 0;
  try {
    // A few connections at a time (fewer than the 8 per address a server may allow).
    for (let first = 0; first < connections; first += 4) {
      const sent: Array<[number, FuzzCase]> = [];
      const plans = Array.from({ length: Math.min(4, connections - first) }, () => {
        const cases: FuzzCase[] = [];
        for (let n = rng.between(1, 5); n > 0; n--) {
          // A port the server never sees: only Via and Contact name it.
          const local = 40_000 + rng.int(1000);
          const target: Target = { server: victim.sipPort, local, number, login: FUZZ_LOGIN, transport: 'TCP' };
          const fuzz = fuzzCase(rng, target, index);
          // Now and then a message past the server's 64 KB.
          if (rng.chance(0.03)) fuzz.bytes = Buffer.concat([fuzz.bytes, Buffer.alloc(70_000, 0x61)]);
          sent.push([index++, fuzz]);
          cases.push(fuzz);
        }
        return { cases, cut: rng.chance(0.3), seed: rng.int(2 ** 32) };
      });
      const run = (plan: (typeof plans)[number]) => fuzzConnection(victim, new Prng(plan.seed), plan.cases, plan.cut);
      try {
        await whileAlive(victim, Promise.all(plans.map(run)), 'a group of TCP connections');
        await assertAnswers(victim, probe);
      } catch (error) {
        await recover(
          victim,
          error,
          part,
          'a group of connections (their cases sent again one by one, below, while restarts were left)',
        );
        const found = victim.crashes.length;
        for (const [at, one] of sent) {
          const alone = { cases: [one], cut: false, seed: 1 };
          await whileAlive(victim, run(alone), 'one TCP connection')
            .then(() => assertAnswers(victim, probe))
            .catch((died) => recover(victim, died, part, describeCase(at, one)));
        }
        if (victim.crashes.length > found) victim.crashes.splice(found - 1, 1);
        else {
          const crash = victim.crashes[found - 1];
          if (crash)
            crash.input = `the group together (split and cut):\n${sent.map(([at, one]) => describeCase(at, one)).join('\n')}`;
        }
      }
    }
  } finally {
    probe.close();
  }
}

/** The Authorization answering a 401's challenge (RFC 2617: MD5, qop=auth). */
function authorization(challenge: Response, method: string, uri: string, login: string, secret: string): string {
  const header = challenge.getHeader('www-authenticate');
  if (!header) throw new Error(`a ${challenge.statusCode} without WWW-Authenticate`);
  const params = parseAuth(header).params as Record<string, string>;
  const cnonce = token();
  const nc = '00000001';
  const ha1 = md5(`${login}:${params.realm}:${secret}`);
  const ha2 = md5(`${method}:${uri}`);
  const response = md5(`${ha1}:${params.nonce}:${nc}:${cnonce}:auth:${ha2}`);
  return `Authorization: Digest username="${login}", realm="${params.realm}", nonce="${params.nonce}", uri="${uri}", response="${response}", algorithm=MD5, qop=auth, nc=${nc}, cnonce="${cnonce}"`;
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
async function authenticatedCall(
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
    headers: [authorization(challenge, 'INVITE', uri, FUZZ_LOGIN, secret)],
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

describe.skipIf(!available)('the SIP fuzzer', () => {
  let janus: TestJanus;
  let victim: Victim;
  let admin: string;
  let number: string;
  let channelId: number;
  let fuzzSecret: string;
  let phoneSecret: string;
  const cleanups: Array<() => unknown> = [];

  beforeAll(async () => {
    janus = await testJanus();
    cleanups.push(() => janus.stop());
    victim = await startVictim('fuzzed', {
      JANUS_URL: janus.url,
      JANUS_API_SECRET: janus.secret,
      SIP_REQUESTS_PER_MINUTE: '1000000',
    });
    cleanups.push(() => {
      victim.server.child.kill('SIGKILL');
      rmSync(victim.dir, { recursive: true, force: true });
    });
    admin = await signIn(victim);
    const channel = await post(victim.server.base, '/user/api/createChannel', { channelName: 'alpha' }, admin);
    expect(channel.status).toBe(200);
    channelId = channel.body.res.id;
    number = String(1000 + channelId);
    const gateway = async (name: string, login: string) => {
      const made = await post(
        victim.server.base,
        '/user/api/createGateway',
        // Not quiet between: the channel's silence goes to the gateway at once, so a call's media flows.
        { name, login, channelIds: [channelId], quietBetween: false },
        admin,
      );
      expect(made.status).toBe(200);
      return made.body.secret as string;
    };
    fuzzSecret = await gateway('Radio Fuzz', FUZZ_LOGIN);
    phoneSecret = await gateway('Radio Quai', PHONE_LOGIN);
    console.log(`SIP fuzz seed ${SEED} (SIP_FUZZ_SEED=${SEED} replays it)`);
  });

  beforeEach(async () => {
    if (victim) await revive(victim);
  });

  afterAll(async () => {
    const faults = victim ? outputOf(victim.server.child).match(/a fault stayed local[^"]*/g) : null;
    if (faults?.length) console.log(`faults the fuzzed server kept local:\n${[...new Set(faults)].join('\n')}`);
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it(
    'answers after thousands of mutated requests and responses over UDP',
    async () => {
      const probe = await RawUdp.open(victim.sipPort, PROBE_HOST);
      try {
        const received = await fuzzUdp(victim, new Prng(SEED), UDP_CASES, number);
        noCrashes(victim, 'UDP');
        // The requests it could read are answered (400, 401, 481, 503...): the fuzz reached the SIP stack.
        expect(received).toBeGreaterThan(UDP_CASES / 10);
        expect(await assertAnswers(victim, probe, undefined, true)).toBe(200);
      } finally {
        probe.close();
      }
    },
    PART_MS,
  );

  it(
    'answers after hundreds of TCP connections of mutated messages, split across writes and cut',
    async () => {
      await fuzzTcp(victim, new Prng(SEED + 1), TCP_CONNECTIONS, number);
      noCrashes(victim, 'TCP');
      // A well-formed OPTIONS on a new connection is still read and answered over TCP.
      const socket = net.connect(victim.sipPort, '127.0.0.1');
      try {
        const callId = `tcp-${token()}`;
        const text = [
          `OPTIONS sip:127.0.0.1:${victim.sipPort};transport=tcp SIP/2.0`,
          `Via: SIP/2.0/TCP 127.0.0.1:${socket.localPort ?? 9};branch=z9hG4bK${token()};rport`,
          'Max-Forwards: 70',
          `From: <sip:${FUZZ_LOGIN}@127.0.0.1>;tag=${token()}`,
          `To: <sip:127.0.0.1:${victim.sipPort}>`,
          `Call-ID: ${callId}`,
          'CSeq: 1 OPTIONS',
          'Content-Length: 0',
          '',
          '',
        ].join('\r\n');
        let read = '';
        const answered = new Promise<string>((resolve) =>
          socket.on('data', (chunk) => {
            read += chunk.toString();
            if (read.includes('\r\n\r\n')) resolve(read);
          }),
        );
        socket.on('error', () => {});
        socket.write(text);
        expect(await whileAlive(victim, answered, 'an OPTIONS over TCP')).toMatch(/^SIP\/2\.0 200 /);
      } finally {
        socket.destroy();
      }
    },
    PART_MS,
  );

  it(
    'answers every authenticated INVITE whose offer is mutated, and hangs up those it answered',
    async () => {
      const sip = await RawUdp.open(victim.sipPort);
      const probe = await RawUdp.open(victim.sipPort, PROBE_HOST);
      const media = dgram.createSocket('udp4');
      media.on('message', () => {});
      await new Promise<void>((resolve) => media.bind(0, '127.0.0.1', resolve));
      const rng = new Prng(SEED + 2);
      const statuses = new Map<string, number[]>();
      let current = '';
      const context = () => `\nthe offer (seed ${SEED}): ${current}`;
      try {
        for (let index = 0; index < SDP_CASE_COUNT + 12; index++) {
          const { klass, body } = sdpCase(rng, '127.0.0.1', media.address().port, index);
          current = `[${klass}] ${JSON.stringify(body.length > 600 ? `${body.slice(0, 600)}...` : body)}`;
          let status = 0;
          try {
            const call = await authenticatedCall(victim, sip, number, fuzzSecret, body, context);
            status = call.status;
            if (call.status === 200) {
              // Its media flows a moment (the relay sends the channel's silence to the offer's address) before the BYE.
              await new Promise((resolve) => setTimeout(resolve, 100));
              expect(await call.bye()).toBe(200);
            }
            await assertAnswers(victim, probe, context);
          } catch (error) {
            await recover(victim, error, 'authenticated INVITE', current);
          }
          statuses.set(klass, [...(statuses.get(klass) ?? []), status]);
        }
        console.log(
          `authenticated INVITEs with mutated offers, by class: ${[...statuses].map(([klass, codes]) => `${klass} ${[...new Set(codes)].join('/')}`).join('; ')}`,
        );
        // An offer whose media port cannot be one (issue 57: 1-65535; 0 refuses the stream) is never answered 200.
        noCrashes(victim, 'authenticated INVITE');
        for (const klass of ['sdp port 99999', 'sdp port 65536', 'sdp port -1', 'sdp port 0', 'sdp no m line'])
          expect(statuses.get(klass)?.filter((status) => status < 300) ?? [], klass).toEqual([]);
      } finally {
        sip.close();
        probe.close();
        media.close();
      }
    },
    PART_MS,
  );

  it(
    "answers after RTP-shaped and random datagrams on a live call's relay port, and ends that call on its BYE",
    async () => {
      const sip = await RawUdp.open(victim.sipPort);
      const probe = await RawUdp.open(victim.sipPort, PROBE_HOST);
      const media = dgram.createSocket('udp4');
      const stranger = dgram.createSocket('udp4');
      let heard = 0;
      media.on('message', () => {
        heard++;
      });
      stranger.on('message', () => {});
      await new Promise<void>((resolve) => media.bind(0, '127.0.0.1', resolve));
      await new Promise<void>((resolve) => stranger.bind(0, '127.0.0.1', resolve));
      const rng = new Prng(SEED + 3);
      let batch: string[] = [];
      const context = () => `\nthe datagrams sent to the relay just before it (seed ${SEED}):\n${batch.join('\n')}`;
      let bye: (() => Promise<number>) | undefined;
      try {
        const offerText = [
          'v=0',
          'o=- 1 1 IN IP4 127.0.0.1',
          's=-',
          'c=IN IP4 127.0.0.1',
          't=0 0',
          `m=audio ${media.address().port} RTP/AVP 0 101`,
          'a=rtpmap:0 PCMU/8000',
          'a=rtpmap:101 telephone-event/8000',
          'a=fmtp:101 0-15',
          'a=sendrecv',
          '',
        ].join('\r\n');
        const call = await authenticatedCall(victim, sip, number, fuzzSecret, offerText, context);
        expect(call.status).toBe(200);
        bye = call.bye;
        const relayPort = Number(/m=audio (\d+)/.exec(String(call.answer.body ?? ''))?.[1]);
        expect(relayPort).toBeGreaterThan(0);
        // The call is up: it sends the relay PCMU silence, 20 ms frames, until the channel's silence comes back.
        let sequence = 0;
        const frame = () => {
          const packet = Buffer.alloc(12 + 160, 0xff);
          packet[0] = 0x80;
          packet[1] = 0;
          packet.writeUInt16BE(sequence & 0xffff, 2);
          packet.writeUInt32BE(sequence * 160, 4);
          packet.writeUInt32BE(0x5eed, 8);
          sequence++;
          media.send(packet, relayPort, '127.0.0.1');
        };
        const untilHeard = async (what: string) => {
          const before = heard;
          const talking = setInterval(frame, 20);
          try {
            await whileAlive(victim, expect.poll(() => heard, { timeout: WAIT_MS }).toBeGreaterThan(before + 5), what);
          } finally {
            clearInterval(talking);
          }
        };
        await untilHeard('the relay sending the channel to the call');
        for (let index = 0; index < RTP_CASES; index++) {
          const { klass, bytes } = rtpCase(rng);
          // Mostly from the call's own address and port (what the relay accepts), now and then from another port.
          const from = rng.chance(0.85) ? media : stranger;
          batch.push(`#${index} [${klass}] ${bytes.length} bytes: ${bytes.subarray(0, 48).toString('hex')}`);
          await new Promise<void>((resolve) => from.send(bytes, relayPort, '127.0.0.1', () => resolve()));
          if (batch.length < BATCH_CASES && index < RTP_CASES - 1) continue;
          try {
            await assertAnswers(victim, probe, context);
          } catch (error) {
            // The call died with the process: what ended it is kept, and this part ends here.
            await recover(victim, error, 'relay port', `one of these datagrams:\n${batch.join('\n')}`);
            bye = undefined;
            noCrashes(victim, 'relay port');
          }
          batch = [];
        }
        // The call lived through it: the relay still sends it the channel, its BYE is answered, and it is gone.
        await untilHeard('the relay sending the channel to the call after the fuzz');
        bye = undefined;
        expect(await call.bye()).toBe(200);
        await expect
          .poll(
            async () =>
              (await post(victim.server.base, '/user/api/listGatewayCalls', { channelId }, admin)).body.res?.length,
            { timeout: WAIT_MS },
          )
          .toBe(0);
      } finally {
        await bye?.().catch(() => {});
        sip.close();
        probe.close();
        media.close();
        stranger.close();
      }
    },
    PART_MS,
  );

  it(
    'answers after the mutations at the default rate limit (120 INVITEs and REGISTERs a minute)',
    async () => {
      const limited = await startVictim('default-rate', {});
      try {
        const probe = await RawUdp.open(limited.sipPort, PROBE_HOST);
        try {
          await fuzzUdp(limited, new Prng(SEED + 4), DEFAULT_RATE_CASES, number);
          noCrashes(limited);
          expect(await assertAnswers(limited, probe, undefined, true)).toBe(200);
        } finally {
          probe.close();
        }
      } finally {
        limited.server.child.kill('SIGKILL');
        await exited(limited.server.child);
        rmSync(limited.dir, { recursive: true, force: true });
      }
    },
    PART_MS,
  );

  it(
    "then a real gateway's call is answered, gets the channel's audio and hangs up cleanly",
    async () => {
      const phone = await startBaresip({
        login: PHONE_LOGIN,
        secret: phoneSecret,
        sipPort: victim.sipPort,
        record: true,
      });
      cleanups.push(() => phone.stop());
      const call = await whileAlive(
        victim,
        phone.dial(number),
        'baresip dialling the channel',
        () => `\n${phone.output().slice(-3000)}`,
      );
      const listed = await post(victim.server.base, '/user/api/listGatewayCalls', { channelId }, admin);
      expect(listed.body.res).toContainEqual(expect.objectContaining({ callId: call.id, gatewayName: 'Radio Quai' }));
      // The relay sends it the channel (silence while nobody talks: not quiet between).
      await whileAlive(victim, phone.recorded(1), 'the channel reaching baresip');
      await whileAlive(victim, phone.hangup(), 'the hang-up');
      await expect
        .poll(
          async () =>
            (await post(victim.server.base, '/user/api/listGatewayCalls', { channelId }, admin)).body.res?.length,
          { timeout: WAIT_MS },
        )
        .toBe(0);
      const probe = await RawUdp.open(victim.sipPort, PROBE_HOST);
      try {
        expect(await assertAnswers(victim, probe, undefined, true)).toBe(200);
      } finally {
        probe.close();
      }
    },
    PART_MS,
  );
});
