/**
 * Channels patched together through a real Janus (the dispatch console's patch, made through the media
 * planes as /user/api/patchChannels does): what is said in one channel is heard in the others until the
 * patch ends, and nothing comes back around (a loop would keep the voice going after the talker stops).
 */
import type { Browser } from '@playwright/test';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelSummary } from '../src/channels/store.ts';
import { type Account, createMember, databases } from './harness.ts';
import { janusInspector, type TestJanus, testJanus } from './janus-harness.ts';
import { launchMediaBrowser, type MediaPage, mediaPage } from './media-browser.ts';
import { connectMedia, hears, joinMedia, press, release, SILENT_DB, silent } from './media-world.ts';
import { eventually } from './realtime-harness.ts';
import { realtimeWorld } from './realtime-world.ts';

const ALICE = 600;
const CAROL = 1500;

let browser: Browser;
beforeAll(async () => {
  browser = await launchMediaBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(databases)('patched channels through Janus on %s', (dialect) => {
  let janus: TestJanus;
  let page: MediaPage;
  beforeEach(async () => {
    janus = await testJanus();
  });
  const world = realtimeWorld(dialect, () => ({ janusUrls: [janus.url], janusApiSecret: janus.secret }));
  let green: ChannelSummary;
  let dave: Account;
  beforeEach(async () => {
    page = await mediaPage(browser, world.url);
    green = await world.app.services.channels.create('Green');
    dave = await createMember(world.app, world.admin, { firstName: 'Dave', lastName: 'Vert' });
    await world.app.services.memberships.add(green.id, [dave.id]);
  });
  afterEach(async () => {
    await page?.close();
    await janus?.stop();
  });

  const join = (
    account: Account,
    channel: Pick<ChannelSummary, 'rtcSession'>,
    name: string,
    options?: Parameters<typeof joinMedia>[5],
  ) => joinMedia(page, world.url, account, channel, name, options, (client) => world.track(client));

  it('lets every patched channel hear what is said in one, without echo, until unpatched', async () => {
    const media = world.app.media;
    const alice = await join(world.alice, world.red, 'alice', { tone: ALICE });
    await join(world.bob, world.red, 'bob');
    const carol = await join(world.carol, world.blue, 'carol', { tone: CAROL });
    await join(dave, green, 'dave');

    expect(media.canPatch([world.red, world.blue, green])).toBe(true);
    await media.patch('desk-1', [world.red, world.blue, green]);

    await press(page, alice);
    // Red's voice in Blue (a talker there hears it) and in Green; Red's own listener hears it once.
    await hears(page, 'carol', ALICE);
    await hears(page, 'dave', ALICE, [CAROL]);
    await hears(page, 'bob', ALICE, [CAROL]);
    await release(page, alice);
    // Nothing comes back around: once Alice stops, every channel is silent.
    await silent(page, 'bob', [ALICE]);
    await silent(page, 'carol', [ALICE]);
    await silent(page, 'dave', [ALICE]);

    await press(page, carol);
    await hears(page, 'bob', CAROL, [ALICE]);
    await hears(page, 'dave', CAROL, [ALICE]);
    await hears(page, 'alice', CAROL);

    await media.unpatch('desk-1');
    await silent(page, 'bob', [CAROL]);
    await silent(page, 'dave', [CAROL]);
    // Blue still hears itself: Carol's channel goes on as before.
    const inspector = await janusInspector(janus.url);
    try {
      await eventually(
        async () =>
          !(await inspector.bridgeExists(world.red.id)) ||
          (await inspector.bridgeParticipants(world.red.id)).every((one) => !one.display?.startsWith('patch:')),
        'the patch participants left',
      );
      // Unpatched, nothing needs two voices at once: the mixer goes.
      await eventually(async () => !(await inspector.bridgeExists(world.red.id)), 'the mixer is closed');
    } finally {
      await inspector.close();
    }
  });

  it("patches through the dispatch console's calls: a member's voice crosses to the other channel until unpatched", async () => {
    const alice = await join(world.alice, world.red, 'alice', { tone: ALICE });
    await join(world.bob, world.red, 'bob');
    await join(world.carol, world.blue, 'carol');
    const patched = await world.app.call(
      '/user/api/patchChannels',
      { channelIds: [world.red.id, world.blue.id] },
      world.admin.token,
    );
    expect(patched.status).toBe(200);
    const { patchId } = patched.body.res;
    const listed = await world.app.call('/user/api/getPatches', {}, world.admin.token);
    expect(listed.body.res.map((patch: { patchId: number }) => patch.patchId)).toEqual([patchId]);
    expect(await world.activitiesOf(world.admin.id, 'channel_patch')).toHaveLength(2);

    await press(page, alice);
    await hears(page, 'carol', ALICE);
    await release(page, alice);
    await silent(page, 'carol', [ALICE]);

    const unpatched = await world.app.call('/user/api/unpatchChannels', { patchId }, world.admin.token);
    expect(unpatched.status).toBe(200);
    await press(page, alice);
    // Red hears Alice; Blue, over a second of her voice, no longer does.
    await hears(page, 'bob', ALICE);
    for (let sample = 0; sample < 5; sample++) {
      expect((await page.levels('carol', [ALICE]))[0]).toBeLessThan(SILENT_DB);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await release(page, alice);
  });

  it('keeps patched rooms while nobody is in them and brings the patch back after Janus restarts', async () => {
    const media = world.app.media;
    await media.patch('desk-2', [world.red, world.blue]);
    const inspector = await janusInspector(janus.url);
    try {
      // Made at once, with nobody in either channel yet: the mixers that carry the patch.
      expect(await inspector.bridgeExists(world.red.id)).toBe(true);
      expect(await inspector.bridgeExists(world.blue.id)).toBe(true);
    } finally {
      await inspector.close();
    }
    const alice = await join(world.alice, world.red, 'alice', { tone: ALICE });
    const carol = await join(world.carol, world.blue, 'carol');
    alice.client.close();
    const again = await janusInspector(janus.url);
    try {
      await eventually(async () => (await again.participants(world.red.id)).length === 0, 'alice left red');
      expect(await again.bridgeExists(world.red.id)).toBe(true);
    } finally {
      await again.close();
    }

    await janus.kill('SIGKILL');
    await janus.restart();
    // Carol's page is told the voice is back through Janus (as the app's transport does, it connects again);
    // the patch was made again on the new Janus without anyone asking.
    await carol.client.next('media_plane', (plane) => plane.kind === 'server');
    await connectMedia(page, carol);
    const red = await join(world.alice, world.red, 'alice-again', { tone: ALICE });
    await press(page, red);
    await hears(page, 'carol', ALICE);
  }, 90_000);
});
