/**
 * A small TURN client (RFC 5766/8656 over UDP, node:dgram) for the relay's tests against a real coturn: an
 * Allocate with long-term credentials (the first request is answered 401 with a realm and a nonce, the second
 * carries USERNAME, REALM, NONCE and MESSAGE-INTEGRITY), then CreatePermission for a peer. Only what those
 * two requests need.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';

const MAGIC = 0x2112a442;
const ALLOCATE = 0x0003;
const CREATE_PERMISSION = 0x0008;
const SUCCESS = 0x0100;
const ERROR = 0x0110;

const USERNAME = 0x0006;
const MESSAGE_INTEGRITY = 0x0008;
const ERROR_CODE = 0x0009;
const REALM = 0x0014;
const NONCE = 0x0015;
const XOR_PEER_ADDRESS = 0x0012;
const XOR_RELAYED_ADDRESS = 0x0016;
const REQUESTED_TRANSPORT = 0x0019;

export interface TurnAnswer {
  ok: boolean;
  /** The error's code (401, 403, 437, ...) when not ok. */
  code?: number;
  reason?: string;
  /** The relayed transport address (Allocate). */
  relayed?: { address: string; port: number };
}

function attribute(type: number, value: Buffer): Buffer {
  const padded = Buffer.alloc(4 + Math.ceil(value.length / 4) * 4);
  padded.writeUInt16BE(type, 0);
  padded.writeUInt16BE(value.length, 2);
  value.copy(padded, 4);
  return padded;
}

function xorAddress(address: string, port: number): Buffer {
  const value = Buffer.alloc(8);
  value.writeUInt8(0x01, 1);
  value.writeUInt16BE(port ^ (MAGIC >>> 16), 2);
  const octets = address.split('.').map(Number);
  const packed = ((octets[0] << 24) | (octets[1] << 16) | (octets[2] << 8) | octets[3]) >>> 0;
  value.writeUInt32BE((packed ^ MAGIC) >>> 0, 4);
  return value;
}

function readXorAddress(value: Buffer): { address: string; port: number } {
  const port = value.readUInt16BE(2) ^ (MAGIC >>> 16);
  const packed = (value.readUInt32BE(4) ^ MAGIC) >>> 0;
  return { address: [24, 16, 8, 0].map((shift) => (packed >>> shift) & 0xff).join('.'), port };
}

interface Credentials {
  username: string;
  realm: string;
  nonce: Buffer;
  key: Buffer;
}

/** A request: its header, its attributes and, with credentials, MESSAGE-INTEGRITY over all of it. */
function request(method: number, attributes: Buffer[], credentials?: Credentials): { id: Buffer; bytes: Buffer } {
  const id = randomBytes(12);
  const all = [...attributes];
  if (credentials)
    all.push(
      attribute(USERNAME, Buffer.from(credentials.username)),
      attribute(REALM, Buffer.from(credentials.realm)),
      attribute(NONCE, credentials.nonce),
    );
  let body = Buffer.concat(all);
  const header = Buffer.alloc(20);
  header.writeUInt16BE(method, 0);
  header.writeUInt32BE(MAGIC, 4);
  id.copy(header, 8);
  if (credentials) {
    // The length counts MESSAGE-INTEGRITY (24 bytes), whose HMAC covers everything before it.
    header.writeUInt16BE(body.length + 24, 2);
    const mac = createHmac('sha1', credentials.key)
      .update(Buffer.concat([header, body]))
      .digest();
    body = Buffer.concat([body, attribute(MESSAGE_INTEGRITY, mac)]);
  }
  header.writeUInt16BE(body.length, 2);
  return { id, bytes: Buffer.concat([header, body]) };
}

function parse(message: Buffer): { type: number; id: Buffer; attributes: Map<number, Buffer> } {
  const type = message.readUInt16BE(0);
  const length = message.readUInt16BE(2);
  const attributes = new Map<number, Buffer>();
  for (let at = 20; at + 4 <= 20 + length; ) {
    const kind = message.readUInt16BE(at);
    const size = message.readUInt16BE(at + 2);
    attributes.set(kind, message.subarray(at + 4, at + 4 + size));
    at += 4 + Math.ceil(size / 4) * 4;
  }
  return { type, id: message.subarray(8, 20), attributes };
}

/** One client allocation on a TURN server (host:port over UDP) with a username and password. */
export class TurnClient {
  private readonly socket: Socket = createSocket('udp4');
  private credentials?: Credentials;
  private readonly waiting = new Map<string, (message: Buffer) => void>();
  private readonly server: { host: string; port: number };
  private readonly login: { username: string; password: string };

  constructor(server: { host: string; port: number }, login: { username: string; password: string }) {
    this.server = server;
    this.login = login;
    this.socket.on('message', (message) => {
      if (message.length < 20) return;
      const key = message.subarray(8, 20).toString('hex');
      this.waiting.get(key)?.(message);
    });
  }

  private async send(method: number, attributes: Buffer[]): Promise<ReturnType<typeof parse>> {
    const { id, bytes } = request(method, attributes, this.credentials);
    const key = id.toString('hex');
    const answer = new Promise<Buffer>((resolve, reject) => {
      // UDP: sent again every half second, up to 5 seconds (RFC 5389's retransmissions, shortened).
      let tries = 0;
      const resend = () => {
        if (tries++ >= 10) {
          clearInterval(timer);
          this.waiting.delete(key);
          reject(new Error(`no answer from the TURN server to request ${method}`));
          return;
        }
        this.socket.send(bytes, this.server.port, this.server.host);
      };
      const timer = setInterval(resend, 500);
      this.waiting.set(key, (message) => {
        clearInterval(timer);
        this.waiting.delete(key);
        resolve(message);
      });
      resend();
    });
    return parse(await answer);
  }

  private answerOf(parsed: ReturnType<typeof parse>, method: number): TurnAnswer {
    if (parsed.type === (method | SUCCESS)) {
      const relayed = parsed.attributes.get(XOR_RELAYED_ADDRESS);
      return { ok: true, ...(relayed ? { relayed: readXorAddress(relayed) } : {}) };
    }
    if (parsed.type !== (method | ERROR)) throw new Error(`unexpected TURN message type ${parsed.type}`);
    const error = parsed.attributes.get(ERROR_CODE) ?? Buffer.alloc(4);
    return { ok: false, code: error.readUInt8(2) * 100 + error.readUInt8(3), reason: error.subarray(4).toString() };
  }

  /** Allocate a UDP relay: asked once without credentials to learn the realm and nonce, then with them. */
  async allocate(): Promise<TurnAnswer> {
    const transport = attribute(REQUESTED_TRANSPORT, Buffer.from([17, 0, 0, 0]));
    const first = await this.send(ALLOCATE, [transport]);
    const challenge = this.answerOf(first, ALLOCATE);
    if (challenge.ok || challenge.code !== 401) return challenge;
    const realm = first.attributes.get(REALM)?.toString() ?? '';
    const nonce = first.attributes.get(NONCE) ?? Buffer.alloc(0);
    const key = createHash('md5').update(`${this.login.username}:${realm}:${this.login.password}`).digest();
    this.credentials = { username: this.login.username, realm, nonce, key };
    return this.answerOf(await this.send(ALLOCATE, [transport]), ALLOCATE);
  }

  /** Asks the relay to let this peer's packets through (and to send ours to it). */
  async createPermission(peer: string): Promise<TurnAnswer> {
    return this.answerOf(
      await this.send(CREATE_PERMISSION, [attribute(XOR_PEER_ADDRESS, xorAddress(peer, 0))]),
      CREATE_PERMISSION,
    );
  }

  close(): void {
    this.socket.close();
  }
}
