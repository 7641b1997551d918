/**
 * The map without the internet (issue 58). MAP_TILE_URL points at a tile server of the test:
 * - one that answers errors: the map says so in a sentence, keeps the member's marker on a plain light
 *   background, and asks for tiles again only now and then, each time later (the server counts the requests;
 *   the page runs on Playwright's clock, which the test moves on to each retry instead of waiting for it);
 *   once the server answers, the tiles come back and the sentence goes;
 * - one that serves its tiles: no sentence.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { FIRST_RETRY_MS } from '../packages/web/src/engines/map/tileHealth.ts';
import { chromiumLaunchOptions } from './chromium.ts';
import { expect as baseExpect, createAdmin, seedFor, startServer, type TalkgroupServer, test } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { openAs, roomUrl, TONE_WAV } from './room-support.ts';

// A busy machine may be slow: wait on states, with deadlines to match.
const expect = baseExpect.configure({ timeout: 60_000 });

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 300_000 });

const UNAVAILABLE = 'Base map unavailable: the map tiles do not load. Positions stay up to date.';
/** A 1×1 PNG, the tile of the working server. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A tile server that counts the tiles asked, and fails them (503) until told to serve them. */
async function tileServer(failing: boolean) {
  const state = { failing, asked: [] as number[] };
  const server: Server = createServer((req, res) => {
    if (!req.url?.startsWith('/tiles/')) {
      res.writeHead(404).end();
      return;
    }
    state.asked.push(Date.now());
    if (state.failing) res.writeHead(503, { 'content-type': 'text/plain' }).end('down');
    else res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(PNG);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    state,
    template: `http://127.0.0.1:${port}/tiles/{z}/{x}/{y}.png`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

declare global {
  interface Window {
    /** When the page asked for each tile (its clock's Date.now()), noted by noteTileRequests. */
    __tileAsks?: number[];
  }
}

/** In the page, before its scripts: notes the time of each tile an image asks for. */
function noteTileRequests() {
  const asks: number[] = [];
  window.__tileAsks = asks;
  const src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, 'src');
  if (!src?.set) return;
  const set = src.set;
  Object.defineProperty(HTMLImageElement.prototype, 'src', {
    ...src,
    set(this: HTMLImageElement, value: string) {
      if (String(value).includes('/tiles/')) asks.push(Date.now());
      set.call(this, value);
    },
  });
}

async function phoneOf(server: TalkgroupServer, token: string): Promise<Socket> {
  const socket = io(server.baseURL, { query: { token }, transports: ['websocket'], forceNew: true });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** A Talkgroup server with these tiles, its administrator, and a channel where Mia's phone reports a position. */
async function deployment(template: string) {
  const server = await startServer({ MAP_TILE_URL: template, MAP_ATTRIBUTION: '© Test tiles' });
  const admin = await createAdmin(server);
  const seed = seedFor(server, admin);
  const channel = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Walker', pseudo: 'mimosa' });
  await seed.addToChannel(channel.id, [mia.id]);
  const phone = await phoneOf(server, mia.token);
  const reported = await phone.timeout(15_000).emitWithAck('onLocationChanged', { lat: 48.8584, lng: 2.2945 });
  expect(reported.success).toBe(true);
  return {
    server,
    admin,
    channel,
    close: async () => {
      phone.disconnect();
      await server.stop();
    },
  };
}

test('tiles that fail: a sentence, the marker on a plain background, a few spaced requests, and back when they load', async ({
  browser,
}) => {
  const tiles = await tileServer(true);
  const world = await deployment(tiles.template);
  const a = await openAs(browser, world.server.baseURL, world.admin);
  const seen: string[] = [];
  a.page.on('request', (request) => {
    if (request.url().includes('/tiles/')) seen.push(request.url());
  });
  try {
    // The page's clock is the test's (its retries come when the test moves it on); its tile requests are noted
    // with that clock's time.
    await a.page.clock.install();
    await a.page.addInitScript(noteTileRequests);
    await a.page.goto(roomUrl(world.channel.rtcSession));
    const map = a.page.getByRole('region', { name: "Map of the channel's members" });
    await expect(map.getByRole('button', { name: /^Mia Walker, / })).toBeVisible({ timeout: 120_000 });
    await expect(map.getByRole('status')).toHaveText(UNAVAILABLE);
    // A plain light background, not a dark box; no tile layer.
    const container = map.locator('.leaflet-container');
    await expect(container).toHaveAttribute('data-tiles', 'down');
    await expect(container).toHaveCSS('background-color', 'rgb(230, 235, 239)');
    await expect(map.locator('.leaflet-tile')).toHaveCount(0);
    // What it looks like (docs/operators/map-tiles.md shows it).
    await map.screenshot({ path: test.info().outputPath('map-tiles-unavailable.png') });
    // One tile was asked, not a view's worth.
    const first = tiles.state.asked.length;
    expect(first).toBeGreaterThanOrEqual(1);
    expect(first).toBeLessThanOrEqual(2);

    // Two retries, on the page's clock run on (5 s, then 10 s after that, each timer at its time): each asks the
    // server once, no more, and the second wait was longer than the first, as the page's own clock measured them.
    await a.page.clock.runFor(FIRST_RETRY_MS);
    await expect.poll(() => tiles.state.asked.length).toBeGreaterThanOrEqual(first + 1);
    await a.page.clock.runFor(2 * FIRST_RETRY_MS);
    await expect.poll(() => tiles.state.asked.length).toBeGreaterThanOrEqual(first + 2);
    const asked = await a.page.evaluate(() => window.__tileAsks ?? []);
    expect(asked.length).toBeLessThanOrEqual(first + 2);
    expect(asked).toHaveLength(tiles.state.asked.length);
    const gaps = asked.slice(1).map((at, i) => at - asked[i]);
    const [before, after] = gaps.slice(-2);
    expect(before).toBeGreaterThanOrEqual(FIRST_RETRY_MS);
    expect(after).toBeGreaterThan(before * 1.5);
    expect(seen.length).toBe(tiles.state.asked.length);
    await expect(map.getByRole('status')).toHaveText(UNAVAILABLE);

    // The tile server answers again: at the next retry (20 s later) the tiles load and the sentence goes.
    tiles.state.failing = false;
    await a.page.clock.fastForward(4 * FIRST_RETRY_MS);
    await expect(map.locator('img.leaflet-tile-loaded').first()).toBeAttached({ timeout: 90_000 });
    await expect(map.getByText(UNAVAILABLE)).toHaveCount(0);
    await expect(container).toHaveAttribute('data-tiles', 'up');
    await expect(map.locator('.leaflet-control-attribution')).toContainText('© Test tiles');
    await expect(map.getByRole('button', { name: /^Mia Walker, / })).toBeVisible();
  } finally {
    await a.close();
    await world.close();
    await tiles.close();
  }
});

test('tiles that load: no sentence', async ({ browser }) => {
  const tiles = await tileServer(false);
  const world = await deployment(tiles.template);
  const a = await openAs(browser, world.server.baseURL, world.admin, { language: 'fr' });
  try {
    await a.page.goto(roomUrl(world.channel.rtcSession));
    const map = a.page.getByRole('region', { name: 'Carte des membres du canal' });
    await expect(map.getByRole('button', { name: /^Mia Walker, / })).toBeVisible({ timeout: 120_000 });
    await expect(map.locator('img.leaflet-tile-loaded').first()).toBeAttached();
    await expect(map.locator('.leaflet-container')).toHaveAttribute('data-tiles', 'up');
    await expect(map.getByText(/Fond de carte indisponible/)).toHaveCount(0);
    expect(tiles.state.asked.length).toBeGreaterThan(0);
  } finally {
    await a.close();
    await world.close();
    await tiles.close();
  }
});
