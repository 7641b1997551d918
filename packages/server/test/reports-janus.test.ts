/**
 * A report of a channel through a real Janus (issue 58): each take there is both a floor grant and a voice message
 * recorded by the server, and the report counted both ("17 s, 4 transmissions" for two). Bob talks twice on a
 * real page (headless Chromium, a tone), Janus records both takes; the report says two transmissions, each as
 * long as its grant, in talk per channel and per member and in the busy hours, on SQLite and PostgreSQL.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databases } from './harness.ts';
import { type TestJanus, testJanus } from './janus-harness.ts';
import { launchMediaBrowser, type MediaPage, mediaPage } from './media-browser.ts';
import { hears, joinMedia, press, release } from './media-world.ts';
import { eventually } from './realtime-harness.ts';
import { realtimeWorld } from './realtime-world.ts';

const BOB = 1200;

let browser: Browser;
beforeAll(async () => {
  browser = await launchMediaBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(databases)('a report of a channel through Janus on %s', (dialect) => {
  let janus: TestJanus;
  let page: MediaPage;
  beforeEach(async () => {
    janus = await testJanus();
  });
  const world = realtimeWorld(dialect, () => ({ janusUrls: [janus.url], janusApiSecret: janus.secret }));
  beforeEach(async () => {
    page = await mediaPage(browser, world.url);
  });
  afterEach(async () => {
    await page?.close();
  });
  afterEach(async () => {
    await janus?.stop();
  });

  const join = (account: Parameters<typeof joinMedia>[2], name: string, options?: Parameters<typeof joinMedia>[5]) =>
    joinMedia(page, world.url, account, world.red, name, options, (client) => world.track(client));

  /** The takes Janus is writing now, by size. */
  const recorded = () => {
    const folder = world.app.config.janusRecordingsDir;
    return existsSync(folder) ? readdirSync(folder).filter((file) => file.endsWith('.mjr')) : [];
  };

  it('counts two transmissions as two, each as long as its grant', async () => {
    const from = new Date(Date.now() - 60_000).toISOString();
    const bob = await join(world.bob, 'bob', { tone: BOB });
    await join(world.alice, 'alice');
    const held: number[] = [];
    for (let take = 1; take <= 2; take += 1) {
      const pressed = Date.now();
      await press(page, bob);
      await hears(page, 'alice', BOB);
      // Held until Janus has recorded a second of it (a state, not a sleep).
      await eventually(
        async () =>
          recorded().some((file) => statSync(path.join(world.app.config.janusRecordingsDir, file)).size > 6_000),
        `Janus recorded take ${take}`,
      );
      await release(page, bob);
      held.push(Date.now() - pressed);
      const kept = await eventually(async () => {
        const answer = await world.app.call(
          '/user/api/getChannelVoiceMessages',
          { channelId: world.red.id },
          world.admin.token,
        );
        return answer.body.res?.length === take ? answer.body.res : undefined;
      }, `take ${take} is in the voice history`);
      expect(kept).toHaveLength(take);
    }

    // Each kept take names its grant: one transmission, from the source.
    const grants = await world
      .db()
      .selectFrom('talk_bursts')
      .select(['id', 'started_at', 'ended_at'])
      .where('channel_id', '=', world.red.id)
      .orderBy('id')
      .execute();
    expect(grants).toHaveLength(2);
    const takes = await world
      .db()
      .selectFrom('voice_messages')
      .select('talk_burst_id')
      .where('channel_id', '=', world.red.id)
      .orderBy('id')
      .execute();
    expect(takes.map((row) => row.talk_burst_id)).toEqual(grants.map((row) => row.id));
    const lengths = grants.map((row) => Date.parse(String(row.ended_at)) - Date.parse(String(row.started_at)));
    lengths.forEach((length, index) => {
      // Each grant lasted about as long as the test held the button (the floor's round trips aside).
      expect(length).toBeGreaterThan(500);
      expect(length).toBeLessThanOrEqual((held[index] ?? 0) + 500);
    });
    const talkMs = lengths.reduce((sum, length) => sum + length, 0);

    const to = new Date(Date.now() + 60_000).toISOString();
    const answer = await world.app.call(
      '/user/api/getReport',
      { from, to, timeZone: 'UTC', channelIds: [world.red.id] },
      world.admin.token,
    );
    expect(answer.status).toBe(200);
    const report = answer.body.res;
    expect(report.talk.channels).toEqual([
      { channelId: world.red.id, channelName: 'Red Team', talkMs, transmissions: 2 },
    ]);
    expect(report.talk.members).toEqual([{ userId: world.bob.id, name: 'Bob Durand', talkMs, transmissions: 2 }]);
    const hours = report.hours as Array<{ transmissions: number; talkMs: number }>;
    expect(hours.reduce((sum, cell) => sum + cell.transmissions, 0)).toBe(2);
    expect(hours.reduce((sum, cell) => sum + cell.talkMs, 0)).toBe(talkMs);

    // A take kept unlinked, as Janus's were before (old rows): still one transmission each.
    await world.db().updateTable('voice_messages').set({ talk_burst_id: null }).execute();
    const again = await world.app.call(
      '/user/api/getReport',
      { from, to, timeZone: 'UTC', channelIds: [world.red.id] },
      world.admin.token,
    );
    expect(again.body.res.talk).toEqual(report.talk);
    expect(again.body.res.hours).toEqual(report.hours);
  });
});
