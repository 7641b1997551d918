/**
 * Two app instances of one deployment (one Redis, one database: PostgreSQL in a schema of its own with
 * TEST_DATABASE_URL, else one SQLite data folder) and one Janus: a channel's pages held by either instance
 * are in the same Janus room and hear each other. Needs TEST_REDIS_URL (CI sets it).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { testJanus } from '../packages/server/test/janus-harness.ts';
import { chromiumLaunchOptions } from './chromium.ts';
import { expect as baseExpect, createAdmin, seedFor, startServer, type TalkgroupServer, test } from './fixtures.ts';
import { roomParticipants, transportOf } from './media-servers.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import {
  connectedPeer,
  expectToHear,
  measureSilence,
  openAs,
  type RoomPage,
  roomUrl,
  TONE_WAV,
} from './room-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });
const redisUrl = process.env.TEST_REDIS_URL;
const postgresUrl = process.env.TEST_DATABASE_URL;

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 180_000 });
test.skip(!redisUrl, 'two instances need Redis (TEST_REDIS_URL)');

/** A PostgreSQL schema of the test's own, and the address that points the server at it. */
async function postgresSchema(url: string): Promise<{ databaseUrl: string; drop(): Promise<void> }> {
  const { default: pg } = await import('pg');
  const schema = `e2e_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`create schema ${schema}`);
  const address = new URL(url);
  address.searchParams.set('options', `-c search_path=${schema}`);
  return {
    databaseUrl: address.toString(),
    async drop() {
      await client.query(`drop schema if exists ${schema} cascade`);
      await client.end();
    },
  };
}

test('two app instances on Redis put one channel pages in the same Janus room', async ({ browser }) => {
  const janus = await testJanus();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'talkgroup-e2e-cluster-'));
  const database = postgresUrl ? await postgresSchema(postgresUrl) : undefined;
  const servers: TalkgroupServer[] = [];
  const pages: RoomPage[] = [];
  try {
    const env = {
      JANUS_URL: janus.url,
      JANUS_API_SECRET: janus.secret,
      REDIS_URL: redisUrl as string,
      REDIS_KEY_PREFIX: `e2e-${randomBytes(6).toString('hex')}:`,
      DATA_DIR: dataDir,
      DATABASE_URL: database?.databaseUrl ?? '',
    };
    servers.push(await startServer(env));
    servers.push(await startServer(env));
    const [one, two] = servers;
    const admin = await createAdmin(one);
    const seed = seedFor(one, admin);
    const channel = await seed.channel();
    const mia = await seed.member({ firstName: 'Mia', lastName: 'Talker' });
    const noe = await seed.member({ firstName: 'Noe', lastName: 'Listener' });
    await seed.addToChannel(channel.id, [mia.id, noe.id]);

    const m = await openAs(browser, one.baseURL, mia);
    const n = await openAs(browser, two.baseURL, noe);
    pages.push(m, n);
    await m.page.goto(roomUrl(channel.rtcSession));
    await n.page.goto(roomUrl(channel.rtcSession));
    await expect(transportOf(m.page)).toHaveText('Voice through the server');
    await expect(transportOf(n.page)).toHaveText('Voice through the server');
    const miaAtNoe = await connectedPeer(n.page, mia.id);
    await expect.poll(() => roomParticipants(janus, channel.id)).toEqual(['Mia Talker', 'Noe Listener']);

    const quiet = await measureSilence(n.page, miaAtNoe);
    const ptt = m.page.getByRole('button', { name: 'Push to talk' });
    await ptt.hover();
    await m.page.mouse.down();
    await expect(ptt).toHaveAttribute('aria-pressed', 'true');
    await expectToHear(n.page, miaAtNoe, quiet);
    await m.page.mouse.up();
  } finally {
    for (const { close } of pages) await close();
    for (const server of servers) await server.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    await janus.stop();
  }
});
