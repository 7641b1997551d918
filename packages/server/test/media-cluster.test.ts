/**
 * Several Janus instances (JANUS_URL, a comma list) and several app instances: each channel is carried by one
 * Janus that every app instance agrees on (Redis with TEST_REDIS_URL), a dead Janus's channels move to
 * another one and the pages are told to connect again, and a patch made through one instance carries the
 * voice of pages held by another.
 */
import { randomBytes } from 'node:crypto';
import type { Browser } from '@playwright/test';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelSummary } from '../src/channels/store.ts';
import { type Cluster, startCluster } from './cluster-harness.ts';
import { type Account, createMember, databases, signUpAdmin, type TestApp } from './harness.ts';
import { janusInspector, TEST_JANUS_SECRET, type TestJanus, testJanus } from './janus-harness.ts';
import { launchMediaBrowser, type MediaPage, mediaPage } from './media-browser.ts';
import { connectMedia, hears, joinMedia, press } from './media-world.ts';
import { eventually, type TestClient } from './realtime-harness.ts';
import { realtimeWorld } from './realtime-world.ts';

const ALICE = 700;
const BOB = 1300;
const redisUrl = process.env.TEST_REDIS_URL;

let browser: Browser;
beforeAll(async () => {
  browser = await launchMediaBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Which of these Janus instances has rooms of the channel (its VideoRoom, its mountpoint or its mixer). */
async function hostOf(januses: TestJanus[], channelId: number): Promise<number[]> {
  const found: number[] = [];
  for (const [index, janus] of januses.entries()) {
    const inspector = await janusInspector(janus.url);
    try {
      const there =
        (await inspector.exists(channelId)) ||
        (await inspector.bridgeExists(channelId)) ||
        (await inspector.mountpoint(channelId)) !== null;
      if (there) found.push(index);
    } finally {
      await inspector.close();
    }
  }
  return found;
}

async function participantsOn(janus: TestJanus, channelId: number): Promise<string[]> {
  const inspector = await janusInspector(janus.url);
  try {
    return (await inspector.participants(channelId)).map((participant) => participant.display ?? '').sort();
  } finally {
    await inspector.close();
  }
}

describe.each(databases)('several Janus instances on %s', (dialect) => {
  let januses: TestJanus[] = [];
  let page: MediaPage;
  beforeEach(async () => {
    januses = [await testJanus(), await testJanus()];
  });
  const world = realtimeWorld(dialect, () => ({
    janusUrls: januses.map((janus) => janus.url),
    janusApiSecret: TEST_JANUS_SECRET,
  }));
  beforeEach(async () => {
    page = await mediaPage(browser, world.url);
  });
  afterEach(async () => {
    await page?.close();
    for (const janus of januses) await janus.stop();
  });

  it('puts a channel on one Janus and moves it to the other when that one dies', async () => {
    const join = (account: Account, name: string, options?: Parameters<typeof joinMedia>[5]) =>
      joinMedia(page, world.url, account, world.red, name, options, (client) => world.track(client));
    const bob = await join(world.bob, 'bob', { tone: BOB });
    const alice = await join(world.alice, 'alice', { tone: ALICE });
    const [host, ...others] = await hostOf(januses, world.red.id);
    expect(others).toEqual([]);
    expect(await participantsOn(januses[host], world.red.id)).toEqual(['Alice Martin', 'Bob Durand']);

    await januses[host].kill('SIGKILL');
    // Another Janus is alive: the pages stay on the media server and are told to connect again.
    await bob.client.next('media_reset');
    await alice.client.next('media_reset');
    expect(bob.client.all('media_plane').map((plane) => plane.kind)).toEqual(['server']);
    await connectMedia(page, bob, { tone: BOB });
    await connectMedia(page, alice, { tone: ALICE });
    expect(await participantsOn(januses[1 - host], world.red.id)).toEqual(['Alice Martin', 'Bob Durand']);
    await press(page, bob);
    await hears(page, 'alice', BOB);
  }, 90_000);
});

describe.runIf(redisUrl)('app instances sharing Redis and two Janus', () => {
  describe.each(databases)('on %s', (dialect) => {
    let januses: TestJanus[] = [];
    let group: Cluster;
    let one: TestApp;
    let urls: string[];
    let admin: Account;
    let alice: Account;
    let bob: Account;
    let carol: Account;
    let red: ChannelSummary;
    let blue: ChannelSummary;
    let page: MediaPage;
    const clients: TestClient[] = [];
    const track = (client: TestClient) => {
      clients.push(client);
      return client;
    };

    beforeEach(async () => {
      januses = [await testJanus(), await testJanus()];
      group = await startCluster(dialect, {
        overrides: { janusUrls: januses.map((janus) => janus.url), janusApiSecret: TEST_JANUS_SECRET },
      });
      [one] = group.apps;
      urls = group.urls;
      admin = await signUpAdmin(one);
      alice = await createMember(one, admin, { firstName: 'Alice', lastName: 'Martin' });
      bob = await createMember(one, admin, { firstName: 'Bob', lastName: 'Durand' });
      carol = await createMember(one, admin, { firstName: 'Carol', lastName: 'Petit' });
      red = await one.services.channels.create(`Red ${randomBytes(3).toString('hex')}`);
      blue = await one.services.channels.create(`Blue ${randomBytes(3).toString('hex')}`);
      await one.services.memberships.add(red.id, [alice.id, bob.id]);
      await one.services.memberships.add(blue.id, [carol.id]);
      page = await mediaPage(browser, urls[0]);
    });
    afterEach(async () => {
      for (const client of clients.splice(0)) client.close();
      await page?.close();
      await group.close();
      for (const janus of januses) await janus.stop();
    });

    it('puts one channel pages held by two instances in the same Janus room, and moves them together', async () => {
      const bobParty = await joinMedia(page, urls[0], bob, red, 'bob', { tone: BOB }, track);
      const aliceParty = await joinMedia(page, urls[1], alice, red, 'alice', { tone: ALICE }, track);
      const [host, ...others] = await hostOf(januses, red.id);
      expect(others).toEqual([]);
      expect(await participantsOn(januses[host], red.id)).toEqual(['Alice Martin', 'Bob Durand']);
      await press(page, bobParty);
      await hears(page, 'alice', BOB);

      await januses[host].kill('SIGKILL');
      await bobParty.client.next('media_reset');
      await aliceParty.client.next('media_reset');
      await connectMedia(page, bobParty, { tone: BOB, enabled: true });
      await connectMedia(page, aliceParty, { tone: ALICE });
      expect(await participantsOn(januses[1 - host], red.id)).toEqual(['Alice Martin', 'Bob Durand']);
      // Bob still holds the floor (decided on his instance): heard on the other Janus too.
      await hears(page, 'alice', BOB);
    }, 90_000);

    it('carries a patch made through one instance between pages held by the other', async () => {
      const aliceParty = await joinMedia(page, urls[1], alice, red, 'alice', { tone: ALICE }, track);
      await joinMedia(page, urls[1], carol, blue, 'carol', {}, track);
      await one.media.patch('desk', [red, blue]);
      await press(page, aliceParty);
      await hears(page, 'carol', ALICE);
      await eventually(async () => {
        const hosts = [...(await hostOf(januses, red.id)), ...(await hostOf(januses, blue.id))];
        return hosts.length === 2;
      }, 'each channel on one Janus');
    }, 90_000);
  });
});
