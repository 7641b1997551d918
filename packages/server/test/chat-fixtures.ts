/** Helpers for the chat, upload and authorization tests: multipart forms, sample images, recorded pushes. */
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { type PushTarget, subscribePushes } from '../src/realtime/pushes.ts';
import type { TestApp } from './harness.ts';

export interface FormFile {
  field?: string;
  fileName: string;
  contentType: string;
  bytes: Buffer;
}

/** A multipart/form-data body built by hand, so that a test controls every byte and header. */
export function multipartForm(fields: Record<string, string | number>, file?: FormFile) {
  const boundary = `----talkgroup${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(value)}\r\n`),
    );
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'image'}"; filename="${file.fileName}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function upload(
  app: TestApp,
  token: string | undefined,
  fields: Record<string, string | number>,
  file?: FormFile,
): Promise<{ status: number; body: any }> {
  const form = multipartForm(fields, file);
  const response = await app.fastify.inject({
    method: 'POST',
    url: '/user/api/uploadFile',
    headers: { 'content-type': form.contentType, ...(token ? { 'x-access-token': token } : {}) },
    payload: form.payload,
  });
  return { status: response.statusCode, body: response.json() };
}

export async function getFile(app: TestApp, path: string) {
  return app.fastify.inject({ method: 'GET', url: path });
}

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real, decodable PNG of width x height grey pixels; `noise` random bytes make it big and incompressible. */
export function pngImage(width = 2, height = 2, noise = 0): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  const raw = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) raw[y * (width + 1)] = 0;
  const chunks = [pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(raw))];
  if (noise > 0) chunks.push(pngChunk('tEXt', Buffer.concat([Buffer.from('noise\0'), randomBytes(noise)])));
  chunks.push(pngChunk('IEND', Buffer.alloc(0)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ...chunks]);
}

export const jpegImage = () =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), Buffer.alloc(20)]);
export const gifImage = () =>
  Buffer.concat([Buffer.from('GIF89a'), Buffer.from([1, 0, 1, 0, 0, 0, 0]), Buffer.from([0x3b])]);
export const webpImage = () =>
  Buffer.concat([Buffer.from('RIFF'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(18)]);
export function bmpImage(): Buffer {
  const bytes = Buffer.alloc(58);
  bytes.write('BM', 0, 'ascii');
  bytes.writeUInt32LE(58, 2);
  bytes.writeUInt32LE(54, 10); // pixel data offset
  bytes.writeUInt32LE(40, 14); // BITMAPINFOHEADER
  bytes.writeInt32LE(1, 18);
  bytes.writeInt32LE(1, 22);
  bytes.writeUInt16LE(1, 26);
  bytes.writeUInt16LE(24, 28);
  return bytes;
}

export interface Push {
  to: string;
  event: string;
  args: unknown[];
}

/** Listens beside the Socket.IO server: records what the HTTP routes push. */
export function recordPushes(app: TestApp): Push[] {
  const pushes: Push[] = [];
  const recorder: PushTarget = {
    toAdmins: (event, ...args) => pushes.push({ to: 'admins', event, args }),
    toRoom: (room, event, ...args) => pushes.push({ to: `room:${room}`, event, args }),
    toAdminsAnd: ({ rooms = [], supervisedChannels = [] }, event, ...args) =>
      pushes.push({
        to: [
          'admins',
          ...rooms.map((room) => `room:${room}`),
          ...supervisedChannels.map((id) => `supervisors:${id}`),
        ].join(','),
        event,
        args,
      }),
    toUser: (userId, event, ...args) => pushes.push({ to: `user:${userId}`, event, args }),
    toEveryone: (event, ...args) => pushes.push({ to: 'everyone', event, args }),
    endSessions: ({ userId }) => pushes.push({ to: `user:${userId}`, event: 'disconnect', args: [] }),
  };
  subscribePushes(app.services.events, recorder);
  return pushes;
}

/** The start of a MediaRecorder WebM file: EBML header (DocType webm), then a track whose CodecID is A_OPUS. */
export function webmOpus(payloadBytes = 400): Buffer {
  const ebml = Buffer.from([
    0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2, 0x81, 0x04, 0x42, 0xf3,
    0x81, 0x08, 0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6d, 0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02,
  ]);
  const segment = Buffer.from([0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
  const track = Buffer.concat([
    Buffer.from([0x16, 0x54, 0xae, 0x6b, 0x9b, 0xae, 0x99, 0xd7, 0x81, 0x01, 0x83, 0x81, 0x02, 0x86, 0x86]),
    Buffer.from('A_OPUS'),
    Buffer.from([0x63, 0xa2, 0x84]),
    Buffer.from('Opus'),
  ]);
  return Buffer.concat([ebml, segment, track, Buffer.alloc(payloadBytes, 0x5a)]);
}
