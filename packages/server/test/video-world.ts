/**
 * The people and channels of live video's tests (video-*.test.ts, issue 61): an administrator; the channel Field
 * with its dispatcher Dana, the members Mia and Olaf and the listen-only member Lena; the channel Depot with its
 * dispatcher Otto; and pages that connect (as /talk, or as a console) and join a channel's room.
 */
import { io } from 'socket.io-client';
import type { Config } from '../src/config/config.ts';
import type { Dialect } from '../src/db/open.ts';
import { type Account, createMember, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { connect, listen, TestClient } from './realtime-harness.ts';
import { createWithRole } from './role-fixtures.ts';

export interface VideoWorld {
  app: TestApp;
  url: string;
  admin: Account;
  dana: Account;
  otto: Account;
  mia: Account;
  olaf: Account;
  lena: Account;
  field: { id: number; rtcSession: string };
  depot: { id: number; rtcSession: string };
  /** A page of this account (as /talk unless `console`), closed after the test. */
  open(account: Account, options?: { console?: boolean; language?: string }): Promise<TestClient>;
  /** A page that joined this channel's room (talk mode). */
  inRoom(account: Account, room?: string, options?: { console?: boolean; language?: string }): Promise<TestClient>;
  /** Starts a stream from a page in the room; its streamId. */
  share(page: TestClient, room?: string): Promise<string>;
  close(): Promise<void>;
}

export async function videoWorld(dialect: Dialect, overrides: Partial<Config> = {}): Promise<VideoWorld> {
  const app = await startApp(dialect, overrides);
  const url = await listen(app);
  const admin = await signUpAdmin(app);
  const dana = await createWithRole(app, admin, 'dispatcher', { firstName: 'Dana', lastName: 'Desk' });
  const otto = await createWithRole(app, admin, 'dispatcher', { firstName: 'Otto', lastName: 'Depot' });
  const mia = await createMember(app, admin, { firstName: 'Mia', lastName: 'Field' });
  const olaf = await createMember(app, admin, { firstName: 'Olaf', lastName: 'Field' });
  const lena = await createMember(app, admin, { firstName: 'Lena', lastName: 'Listen' });
  const field = (await app.call('/user/api/createChannel', { channelName: 'Field' }, admin.token)).body.res;
  const depot = (await app.call('/user/api/createChannel', { channelName: 'Depot' }, admin.token)).body.res;
  await app.services.memberships.add(field.id, [dana.id, mia.id, olaf.id, lena.id]);
  await app.services.memberships.add(depot.id, [otto.id]);
  const rights = await app.call(
    '/user/api/setChannelMemberRights',
    { channelId: field.id, userId: lena.id, canTalk: false },
    admin.token,
  );
  if (rights.status !== 200) throw new Error(`listen-only: ${JSON.stringify(rights.body)}`);
  const clients: TestClient[] = [];

  const open: VideoWorld['open'] = async (account, options = {}) => {
    const client = options.language
      ? await withLanguage(url, account.token, options.language, !options.console)
      : await connect(url, account.token, { talkPage: !options.console });
    clients.push(client);
    return client;
  };
  const inRoom: VideoWorld['inRoom'] = async (account, room = field.rtcSession, options = {}) => {
    const page = await open(account, options);
    const joined = await page.emitAck('join_room', { room, mode: 'talk' });
    if (!joined.success) throw new Error(`join_room: ${JSON.stringify(joined)}`);
    return page;
  };
  const share: VideoWorld['share'] = async (page, room = field.rtcSession) => {
    const started = (await page.emitAck('video_start', { room })) as { success: boolean; streamId?: string };
    if (!started.success || !started.streamId) throw new Error(`video_start: ${JSON.stringify(started)}`);
    return started.streamId;
  };
  return {
    app,
    url,
    admin,
    dana,
    otto,
    mia,
    olaf,
    lena,
    field,
    depot,
    open,
    inRoom,
    share,
    async close() {
      for (const client of clients.splice(0)) client.close();
      await app.close();
    },
  };
}

/** A page whose handshake names its language (Accept-Language), as a browser's does. */
async function withLanguage(url: string, token: string, language: string, talkPage: boolean): Promise<TestClient> {
  const socket = io(url, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    query: { token },
    auth: talkPage ? { app: 'talk' } : {},
    extraHeaders: { 'accept-language': language },
  });
  const client = new TestClient(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(new Error(`connection refused: ${error.message}`)));
  });
  return client;
}

/** A WebM file as MediaRecorder starts one: EBML header (DocType webm), then a VP8 video track and an Opus one. */
export function webmVideo(payloadBytes = 2000, codec = 'V_VP8'): Buffer {
  const ebml = Buffer.from([
    0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2, 0x81, 0x04, 0x42, 0xf3,
    0x81, 0x08, 0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6d, 0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02,
  ]);
  const segment = Buffer.from([0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
  const track = (number: number, codecId: string) =>
    Buffer.concat([Buffer.from([0xae, 0x90, 0xd7, 0x81, number, 0x86, 0x80 | codecId.length]), Buffer.from(codecId)]);
  const tracks = Buffer.concat([Buffer.from([0x16, 0x54, 0xae, 0x6b, 0xa4]), track(1, codec), track(2, 'A_OPUS')]);
  return Buffer.concat([ebml, segment, tracks, Buffer.alloc(payloadBytes, 0x5a)]);
}
