/**
 * The channel and the files of the voice history's tests (voice-messages.test.ts, voice-records.test.ts): audio
 * files a browser could send (Ogg/Opus; a WAV, refused), a zip read back, and `voiceWorld`, which registers the
 * hooks that make for each test an app with an administrator, Mia in the channel Alpha and an outsider, with the
 * requests the tests send (a floor grant recorded as the floor writes it, an upload naming it, a listing).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { afterEach, beforeEach } from 'vitest';
import type { Dialect } from '../src/db/open.ts';
import { multipartForm, webmOpus } from './chat-fixtures.ts';
import { type Account, createMember, signUpAdmin, startApp, type TestApp } from './harness.ts';

/** The first page of an Ogg Opus file (one segment holding OpusHead), then more bytes. */
export function oggOpus(): Buffer {
  const head = Buffer.concat([Buffer.from('OpusHead'), Buffer.from([1, 1, 0x38, 0x01, 0x80, 0xbb, 0, 0, 0, 0, 0])]);
  const page = Buffer.alloc(27);
  page.write('OggS', 0, 'ascii');
  page[4] = 0;
  page[5] = 2; // beginning of stream
  page[26] = 1;
  return Buffer.concat([page, Buffer.from([head.length]), head, Buffer.alloc(200, 0x11)]);
}

export function wav(): Buffer {
  const bytes = Buffer.alloc(44 + 800);
  bytes.write('RIFF', 0, 'ascii');
  bytes.writeUInt32LE(36 + 800, 4);
  bytes.write('WAVEfmt ', 8, 'ascii');
  bytes.writeUInt32LE(16, 16);
  bytes.writeUInt16LE(1, 20);
  bytes.writeUInt16LE(1, 22);
  bytes.writeUInt32LE(8000, 24);
  bytes.writeUInt32LE(16000, 28);
  bytes.writeUInt16LE(2, 32);
  bytes.writeUInt16LE(16, 34);
  bytes.write('data', 36, 'ascii');
  bytes.writeUInt32LE(800, 40);
  return bytes;
}

/** The entries of a zip (stored or deflated), read from its central directory. */
export function unzip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(dataAt, dataAt + size);
    entries.set(name, method === 8 ? inflateRawSync(raw) : Buffer.from(raw));
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

export interface VoiceWorld {
  app: TestApp;
  admin: Account;
  mia: Account;
  outsider: Account;
  channel: { id: number; rtcSession: string };
}

export function voiceWorld(dialect: Dialect): VoiceWorld {
  const world = {} as VoiceWorld;
  beforeEach(async () => {
    const app = await startApp(dialect, { voiceMaxBytes: 64 * 1024 });
    world.app = app;
    world.admin = await signUpAdmin(app);
    world.mia = await createMember(app, world.admin, { firstName: 'Mia', lastName: 'Member' });
    world.outsider = await createMember(app, world.admin);
    world.channel = (await app.call('/user/api/createChannel', { channelName: 'Alpha' }, world.admin.token)).body.res;
    await app.call(
      '/user/api/addUserToChannel',
      { userId: world.mia.id, channelId: world.channel.id },
      world.admin.token,
    );
  });
  afterEach(async () => {
    await world.app.close();
  });
  return world;
}

/** What the voice tests ask of the app of the test running now. */
export function voiceRequests(world: VoiceWorld) {
  const voiceDir = () => path.join(world.app.config.dataDir, 'voice', String(world.channel.id));
  const storedFiles = () => (existsSync(voiceDir()) ? readdirSync(voiceDir()) : []);

  /**
   * The floor grant a browser's recording belongs to (a talk burst, as the floor writes it, naming the grant's
   * id): the record of a press at that time, for a transmission uploaded afterwards naming `grantId`.
   */
  async function grant(
    userId: number,
    startedAt: Date,
    durationMs: number,
    plane: 'mesh' | 'server' = 'mesh',
    where: { id: number } = world.channel,
    grantId: string = randomUUID(),
  ) {
    const row = await world.app.services.db
      .insertInto('talk_bursts')
      .values({
        user_id: userId,
        channel_id: where.id,
        channel_name: 'Alpha',
        started_at: startedAt.toISOString(),
        ended_at: new Date(startedAt.getTime() + durationMs).toISOString(),
        plane,
        grant_id: grantId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, grantId };
  }

  /** Uploads a transmission; a sender who may talk there held the floor then (its grant, named by the upload). */
  async function uploadVoice(
    who: Account | undefined,
    fields: Record<string, string | number> = {},
    audio: { bytes: Buffer; fileName?: string; contentType?: string } | null = { bytes: webmOpus() },
  ): Promise<{ status: number; body: any }> {
    const all = { channelId: world.channel.id, startedAt: new Date().toISOString(), durationMs: 2000, ...fields };
    const at = new Date(String(all.startedAt));
    if (!who || Number.isNaN(at.getTime())) return sendVoice(who?.token, all, audio);
    const given = await grant(who.id, at, Number(all.durationMs) || 1, 'mesh', world.channel, fields.grantId as string);
    return sendVoice(who.token, { ...all, grantId: given.grantId }, audio);
  }

  async function sendVoice(
    token: string | undefined,
    fields: Record<string, string | number>,
    audio: { bytes: Buffer; fileName?: string; contentType?: string } | null = { bytes: webmOpus() },
  ): Promise<{ status: number; body: any }> {
    const form = multipartForm(
      fields,
      audio
        ? {
            field: 'audio',
            fileName: audio.fileName ?? 'talk.webm',
            contentType: audio.contentType ?? 'audio/webm',
            bytes: audio.bytes,
          }
        : undefined,
    );
    const response = await world.app.fastify.inject({
      method: 'POST',
      url: '/user/api/uploadVoiceMessage',
      headers: { 'content-type': form.contentType, ...(token ? { 'x-access-token': token } : {}) },
      payload: form.payload,
    });
    return { status: response.statusCode, body: response.json() };
  }
  const list = (token: string, body: object = {}) =>
    world.app.call('/user/api/getChannelVoiceMessages', { channelId: world.channel.id, ...body }, token);
  return { voiceDir, storedFiles, grant, uploadVoice, sendVoice, list };
}
