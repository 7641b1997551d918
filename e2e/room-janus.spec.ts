/**
 * A channel through the media server (issue 26), in real browsers: each test starts a Janus of its own and a
 * server with JANUS_URL. Pages of the members' app (/talk) and of the console talk and hear through Janus;
 * the floor is enforced there (a page that switches its microphone on without the floor is not heard); a
 * dispatcher's preemption and an SOS's open microphone are heard; the server keeps a take whose talker closed
 * the page at the release; killing Janus takes the channel peer to peer and back by itself; a browser that
 * may only use a relay talks through coturn.
 */
import type { Page } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import {
  exposeConnections,
  exposeMicrophones,
  fecOnEveryLeg,
  forceMicrophone,
  janusDeployment,
  stopLeftovers,
  testCoturn,
  transportOf,
} from './media-servers.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import {
  connectedIn,
  connectedPeer,
  expectSilence,
  expectToHear,
  heardAbove,
  measureSilence,
  openAs,
  peakIn,
  playedFrom,
  type RoomPage,
  roomUrl,
  silenceIn,
  silentBelow,
  TONE_WAV,
} from './room-support.ts';

const expect = baseExpect.configure({ timeout: 60_000 });
const PHONE = { width: 390, height: 844 };

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 240_000 });
test.afterEach(stopLeftovers);

async function hold(page: Page, name = 'Push to talk'): Promise<void> {
  const button = page.getByRole('button', { name }).first();
  await button.hover();
  await page.mouse.down();
  await expect(button).toHaveAttribute('aria-pressed', 'true');
}

test('a channel through Janus: heard by every page, the floor enforced, preemption and SOS heard, a take kept', async ({
  browser,
}) => {
  const deployment = await janusDeployment();
  const { server, seed, admin } = deployment;
  const pages: RoomPage[] = [];
  try {
    const channel = await seed.channel();
    const desk = await seed.channel();
    const mia = await seed.member({ firstName: 'Mia', lastName: 'Talker' });
    const noe = await seed.member({ firstName: 'Noe', lastName: 'Dispatch', role: 'dispatcher' });
    await seed.addToChannel(channel.id, [mia.id, noe.id]);

    // Noe's console room (a dispatcher: talks, and preempts members); the administrator's desk in another
    // channel also listens to this one (listen mode: the channel's mix, encoded once for listeners).
    const n = await openAs(browser, server.baseURL, noe);
    const a = await openAs(browser, server.baseURL, admin);
    pages.push(n, a);
    await exposeMicrophones(n.page);
    await n.page.goto(roomUrl(channel.rtcSession));
    await a.page.goto(roomUrl(desk.rtcSession));
    await a.page
      .getByRole('region', { name: 'Also listen to' })
      .getByRole('switch', { name: `Listen to ${channel.name}` })
      .check();
    await expect(transportOf(n.page)).toHaveText('Voice through the server');

    // Mia on the members' app talks, and closes the page right at the release: the server keeps the take.
    let m = await openAs(browser, server.baseURL, mia, { viewport: PHONE });
    await m.page.goto(`/talk/${channel.id}`);
    await expect(transportOf(m.page)).toHaveText('Voice through the server');
    let miaAtNoe = await connectedPeer(n.page, mia.id);
    const quietAtNoe = await measureSilence(n.page, miaAtNoe);
    await hold(m.page);
    await expectToHear(n.page, miaAtNoe, quietAtNoe);
    // A take shorter than a press let go at once is not kept: a second of her voice played at Noe's.
    const heardFrom = await playedFrom(n.page, miaAtNoe);
    await expect.poll(() => playedFrom(n.page, miaAtNoe)).toBeGreaterThan(heardFrom + 1);
    await m.page.mouse.up();
    await m.close();
    await n.page.getByRole('button', { name: 'Messages' }).click();
    const chat = n.page.getByRole('region', { name: 'Messages' });
    await expect(chat.getByRole('listitem', { name: 'Transmission from Mia Talker' })).toHaveCount(1);

    m = await openAs(browser, server.baseURL, mia, { viewport: PHONE });
    pages.push(m);
    await m.page.goto(`/talk/${channel.id}`);
    await m.page.context().grantPermissions(['geolocation']);
    await m.page.context().setGeolocation({ latitude: 45.764, longitude: 4.8357, accuracy: 12 });
    miaAtNoe = await connectedPeer(n.page, mia.id);
    const miaAtDesk = await connectedIn(a.page, channel.rtcSession, mia.id);
    const quietAtDesk = await silenceIn(a.page, channel.rtcSession, miaAtDesk);

    // Heard by several pages: the dispatcher's room and the listening desk.
    await hold(m.page);
    await expectToHear(n.page, miaAtNoe, quietAtNoe);
    await expect.poll(() => peakIn(a.page, channel.rtcSession, miaAtDesk)).toBeGreaterThan(heardAbove(quietAtDesk));
    await m.page.mouse.up();
    await expectSilence(n.page, miaAtNoe, quietAtNoe);

    // Noe's page switches its microphone on behind the app's back, without the floor: nobody hears it. Mia's
    // voice proves the desk hears the channel, and it goes quiet once she lets go, Noe still sending.
    await forceMicrophone(n.page, true);
    await hold(m.page);
    await expect.poll(() => peakIn(a.page, channel.rtcSession, miaAtDesk)).toBeGreaterThan(heardAbove(quietAtDesk));
    await m.page.mouse.up();
    await expect.poll(() => peakIn(a.page, channel.rtcSession, miaAtDesk)).toBeLessThan(silentBelow(quietAtDesk));
    await forceMicrophone(n.page, false);

    // Noe (a dispatcher) breaks in on Mia: her microphone goes off, and she hears Noe (a talker hears the
    // channel without her own voice).
    const noeAtMia = await connectedPeer(m.page, noe.id);
    const quietAtMia = await measureSilence(m.page, noeAtMia);
    await hold(m.page);
    await hold(n.page);
    await expect(m.page.getByRole('button', { name: 'Push to talk' })).toHaveAttribute('aria-pressed', 'false');
    await expectToHear(m.page, noeAtMia, quietAtMia);
    await n.page.mouse.up();
    await m.page.mouse.up();
    await expectSilence(m.page, noeAtMia, quietAtMia);

    // Mia's SOS opens her microphone without a press: the channel hears her.
    const sos = m.page.getByRole('button', { name: 'SOS alert: hold for 2 seconds to send it' });
    await sos.hover();
    await m.page.mouse.down();
    await expect(m.page.getByText("Alert sent to your channels' dispatchers and the administrators.")).toBeVisible();
    await m.page.mouse.up();
    await expectToHear(n.page, miaAtNoe, quietAtNoe);
  } finally {
    for (const { close } of pages) await close();
    await deployment.stop();
  }
});

test('killing Janus takes the channel peer to peer and back through Janus, by itself', async ({ browser }) => {
  const deployment = await janusDeployment();
  const { server, seed, janus } = deployment;
  const pages: RoomPage[] = [];
  try {
    const channel = await seed.channel();
    const mia = await seed.member({ firstName: 'Mia', lastName: 'Talker' });
    const noe = await seed.member({ firstName: 'Noe', lastName: 'Listener' });
    await seed.addToChannel(channel.id, [mia.id, noe.id]);
    const m = await openAs(browser, server.baseURL, mia);
    const n = await openAs(browser, server.baseURL, noe);
    pages.push(m, n);
    await m.page.goto(roomUrl(channel.rtcSession));
    await n.page.goto(roomUrl(channel.rtcSession));
    await expect(transportOf(n.page)).toHaveText('Voice through the server');
    let miaAtNoe = await connectedPeer(n.page, mia.id);
    const quiet = await measureSilence(n.page, miaAtNoe);

    await janus.kill('SIGKILL');
    await expect(transportOf(n.page)).toHaveText('Voice peer to peer');
    await expect(n.page.getByRole('alert').filter({ hasText: 'Media server down' })).toBeVisible();
    miaAtNoe = await connectedPeer(n.page, mia.id);
    await hold(m.page);
    await expectToHear(n.page, miaAtNoe, quiet);
    await m.page.mouse.up();
    await expectSilence(n.page, miaAtNoe, quiet);

    await janus.restart();
    await expect(transportOf(n.page)).toHaveText('Voice through the server', { timeout: 60_000 });
    await expect(n.page.getByRole('alert').filter({ hasText: 'Media server down' })).toHaveCount(0);
    miaAtNoe = await connectedPeer(n.page, mia.id);
    await hold(m.page);
    await expectToHear(n.page, miaAtNoe, quiet);
    await m.page.mouse.up();
  } finally {
    for (const { close } of pages) await close();
    await deployment.stop();
  }
});

test('a browser that may only use a relay talks through coturn', async ({ browser }) => {
  const turn = await testCoturn();
  const deployment = await janusDeployment({
    TURN_URLS: turn.url,
    TURN_SECRET: turn.secret,
    ICE_TRANSPORT_POLICY: 'relay',
  });
  const { server, seed } = deployment;
  const pages: RoomPage[] = [];
  try {
    const channel = await seed.channel();
    const mia = await seed.member({ firstName: 'Mia', lastName: 'Talker' });
    const noe = await seed.member({ firstName: 'Noe', lastName: 'Listener' });
    await seed.addToChannel(channel.id, [mia.id, noe.id]);
    const m = await openAs(browser, server.baseURL, mia);
    const n = await openAs(browser, server.baseURL, noe);
    pages.push(m, n);
    for (const { page } of [m, n]) await exposeConnections(page);
    await m.page.goto(roomUrl(channel.rtcSession));
    await n.page.goto(roomUrl(channel.rtcSession));
    // Relay only: a connection up at all went through coturn (no other path is allowed).
    const miaAtNoe = await connectedPeer(n.page, mia.id);
    const quiet = await measureSilence(n.page, miaAtNoe);
    await hold(m.page);
    await expectToHear(n.page, miaAtNoe, quiet);
    await m.page.mouse.up();
    // Opus in-band FEC asked for on every leg (issue 37): each page's microphone up and the channel's voice
    // down, in both descriptions of each connection.
    for (const { page } of [m, n]) {
      const legs = await fecOnEveryLeg(page);
      expect(legs).toHaveLength(2);
      expect(legs).toEqual(legs.map(() => ({ local: true, remote: true })));
    }
  } finally {
    for (const { close } of pages) await close();
    await deployment.stop();
    await turn.stop();
  }
});
