/**
 * Forward, don't mix (issue 37), against a real Janus with real WebRTC ends in headless Chromium: the mixer
 * (the channel's AudioBridge) comes only at the moments that need two voices at once or a client with one
 * connection, and goes when they end; a spec client (the spec's mesh events, no mode) hears the app's pages
 * through the media server's one peer and is heard, holding the floor through its own mic events; an all call
 * is recorded once and kept in each channel. What the media server does is the same on either database: these
 * run on SQLite.
 */
import type { Browser } from '@playwright/test';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMember } from './harness.ts';
import { janusInspector, type TestJanus, testJanus } from './janus-harness.ts';
import { launchMediaBrowser, type MediaPage, mediaPage } from './media-browser.ts';
import {
  connectMedia,
  hears,
  joinMedia,
  MEDIA_WAIT,
  type MediaParty,
  press,
  receiving,
  release,
  silent,
} from './media-world.ts';
import { connect, eventually } from './realtime-harness.ts';
import { realtimeWorld } from './realtime-world.ts';

const ALICE = 500;
const BOB = 1200;
const ADMIN = 2000;
const SPEC_PEER = 'talkgroup-media-server';

let browser: Browser;
beforeAll(async () => {
  browser = await launchMediaBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe("forward, don't mix: channels through Janus", () => {
  let janus: TestJanus;
  let page: MediaPage;
  beforeEach(async () => {
    janus = await testJanus();
  });
  const world = realtimeWorld('sqlite', () => ({ janusUrls: [janus.url], janusApiSecret: janus.secret }));
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

  it('lets a spec client hear the pages through the media server as one peer, and be heard holding the floor', async () => {
    const alice = await join(world.alice, 'alice', { tone: ALICE });

    // The spec's client: join_room without a mode, the mesh events only.
    const spec = world.track(await connect(world.url, world.bob.token));
    spec.socket.emit('join_room', { room: world.red.rtcSession, name: 'Bob' });
    const peers = await spec.next('all_users');
    expect(peers).toEqual([
      { id: SPEC_PEER, name: world.red.name, userId: 0, room: world.red.rtcSession, mode: 'talk' },
    ]);
    // It offers to that peer as to any other, sending its microphone (which it leaves on: the floor decides).
    const offer = await page.offer('spec', { tone: BOB, enabled: true });
    spec.socket.emit('offer', {
      sdp: { type: 'offer', sdp: offer },
      offerSendID: spec.id,
      offerSendName: 'Bob',
      offerReceiveID: SPEC_PEER,
      room: world.red.rtcSession,
    });
    const answer = await spec.next('getAnswer');
    expect(answer).toMatchObject({ answerSendID: SPEC_PEER, room: world.red.rtcSession, sdp: { type: 'answer' } });
    await page.answer('spec', answer.sdp.sdp);
    await expect
      .poll(() => page.state('spec'), { ...MEDIA_WAIT, message: 'the spec client connected' })
      .toBe('connected');

    // It hears the page that holds the floor; its own voice, sent without the floor, reaches nobody.
    await press(page, alice);
    await hears(page, 'spec', ALICE);
    await hears(page, 'alice', ALICE, [BOB]);
    await release(page, alice);
    await silent(page, 'spec', [ALICE]);
    await silent(page, 'alice', [BOB]);

    // Its mic event takes the floor: the pages hear it, and it goes quiet for them at its release.
    expect(await spec.emitAck('micStateChange', { micState: true, room: world.red.rtcSession })).toMatchObject({
      success: true,
    });
    await hears(page, 'alice', BOB, [ALICE]);
    await spec.emitAck('micStateChange', { micState: false, room: world.red.rtcSession });
    await silent(page, 'alice', [BOB]);
  });

  it('mixes only while two voices are on the air at once (a channel without floor control), then forwards again', async () => {
    const updated = await world.app.call(
      '/user/api/updateChannel',
      { channelId: world.red.id, channelName: world.red.name, floorControl: false },
      world.admin.token,
    );
    expect(updated.status).toBe(200);
    const dave = await createMember(world.app, world.admin, { firstName: 'Dave', lastName: 'Listener' });
    await world.app.services.memberships.add(world.red.id, [dave.id]);
    const alice = await join(world.alice, 'alice', { tone: ALICE });
    const bob = await join(world.bob, 'bob', { tone: BOB });
    await join(dave, 'dave');
    const inspector = await janusInspector(janus.url);
    try {
      await press(page, alice);
      await hears(page, 'dave', ALICE, [BOB]);
      // One voice: forwarded straight, no mixer.
      expect(await inspector.bridgeExists(world.red.id)).toBe(false);

      await press(page, bob);
      await eventually(async () => {
        const levels = await page.levels(receiving('dave'), [ALICE, BOB]);
        return levels.every((level) => level > -50);
      }, 'Dave hears both at once');
      expect(await inspector.bridgeExists(world.red.id)).toBe(true);

      await release(page, bob);
      await hears(page, 'dave', ALICE, [BOB]);
      // One voice again: forwarded straight, and the mixer is gone.
      await eventually(async () => !(await inspector.bridgeExists(world.red.id)), 'the mixer closed');
      await hears(page, 'dave', ALICE, [BOB]);
    } finally {
      await inspector.close();
    }
  });

  it('records an all call once and lists it in each channel it was heard in', async () => {
    // One socket of the administrator's desk in two channels.
    const desk = world.track(await connect(world.url, world.admin.token));
    const parties: MediaParty[] = [];
    for (const [channel, name] of [
      [world.red, 'desk-red'],
      [world.blue, 'desk-blue'],
    ] as const) {
      desk.socket.emit('join_room', { room: channel.rtcSession, mode: 'talk' });
      await desk.next('media_plane', (plane) => plane.room === channel.rtcSession);
      const party = { client: desk, name, room: channel.rtcSession };
      await connectMedia(page, party, { tone: ADMIN });
      parties.push(party);
    }
    await join(world.alice, 'alice');
    const carol = world.track(await connect(world.url, world.carol.token));
    carol.socket.emit('join_room', { room: world.blue.rtcSession, mode: 'listen' });
    await carol.next('media_plane');
    await connectMedia(page, { client: carol, name: 'carol', room: world.blue.rtcSession });

    const rooms = parties.map((party) => party.room);
    const answer: any = await desk.socket.timeout(20_000).emitWithAck('broadcast_request', { rooms });
    expect(answer.granted.sort()).toEqual([...rooms].sort());
    for (const party of parties) await page.talk(party.name, true);
    await hears(page, 'alice', ADMIN);
    await hears(page, 'carol', ADMIN);
    // A second of the call, heard in both.
    const folder = world.app.config.janusRecordingsDir;
    await eventually(async () => {
      const { readdirSync, statSync, existsSync } = await import('node:fs');
      const takes = existsSync(folder) ? readdirSync(folder).filter((file) => file.endsWith('.mjr')) : [];
      // One recording, not one per channel.
      if (takes.length > 1) throw new Error(`the all call was recorded ${takes.length} times`);
      return takes.some((file) => statSync(`${folder}/${file}`).size > 6_000);
    }, 'a second of the call recorded');
    await desk.socket.timeout(20_000).emitWithAck('broadcast_release', { rooms });
    for (const party of parties) await page.talk(party.name, false);

    const historyOf = async (channelId: number) => {
      const listed = await world.app.call('/user/api/getChannelVoiceMessages', { channelId }, world.admin.token);
      return listed.body.res as Array<{ userId: number; createdAt: string; durationMs: number }>;
    };
    const [red, blue] = await Promise.all(
      [world.red.id, world.blue.id].map((channelId) =>
        eventually(async () => {
          const kept = await historyOf(channelId);
          return kept.length > 0 ? kept : undefined;
        }, `the call is in channel ${channelId}'s history`),
      ),
    );
    expect(red).toHaveLength(1);
    expect(blue).toHaveLength(1);
    // The same recording: same talker, same start, same length.
    expect(blue[0]).toMatchObject({
      userId: world.admin.id,
      createdAt: red[0].createdAt,
      durationMs: red[0].durationMs,
    });
  });
});
